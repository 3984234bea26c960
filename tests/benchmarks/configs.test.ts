import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseInput } from "../../src/core/parse-input.js";
import { TrainingConfigurationSchema } from "../../src/training/loop/training-configuration.js";
import { createDreamEnvironment } from "../../src/tasks/dream/dream-environment.js";
import { createProposerSolverEnvironment } from "../../src/tasks/proposer-solver/proposer-solver-environment.js";
import { createRiddlesEnvironment } from "../../src/tasks/riddles/riddles-environment.js";
import { createTicTacToeEnvironment } from "../../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import { createTournamentEnvironment } from "../../src/tasks/tournament/tournament-environment.js";

const folder = resolve(import.meta.dirname, "..", "..", "benchmarks", "configs");
const read = (name: string) => JSON.parse(readFileSync(join(folder, name), "utf8")) as { environment: unknown };

// The recorded runs' configurations (benchmarks/RESULTS.md): a renamed option fails here, not an hour into a run.
describe("the recorded runs' configurations in benchmarks/configs/", () => {
  it("are training configurations whose environment options their environment takes", () => {
    for (const [name, create] of [
      ["proposer-solver-smollm2.json", createProposerSolverEnvironment],
      ["riddles-free-form-smollm2.json", createRiddlesEnvironment],
      ["tournament-smollm2.json", createTournamentEnvironment],
      ["dream-smollm2.json", createDreamEnvironment],
      ["tic-tac-toe-smollm2.json", createTicTacToeEnvironment],
    ] as const) {
      const configuration = read(name);
      expect(() => parseInput(TrainingConfigurationSchema, configuration), name).not.toThrow();
      const environment = create(configuration.environment as never);
      expect(environment.evaluate, name).toBeDefined();
      expect(environment.contextSize, name).toBeGreaterThan(0);
    }
  });

  it("play the tournament in a chat model's form, with a red team for the detectors and a frozen opponent, and sum the run's figures into report.json", () => {
    const environment = createTournamentEnvironment(read("tournament-smollm2.json").environment as never);
    const { episode } = environment.episodes.options as { episode: { prompt: string; role: string } };
    expect([episode.prompt, episode.role.startsWith("red:"), environment.frozenRoles]).toEqual(["chat", true, { c2: "base" }]);
    expect(environment.summariseRun).toBeDefined();
    expect(createDreamEnvironment(read("dream-smollm2.json").environment as never).summariseRun).toBeDefined();
  });
});
