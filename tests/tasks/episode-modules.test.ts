import { describe, expect, it } from "vitest";
import { loadEpisodeModule } from "../../src/arena/pool/episode-module.js";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { arithmeticSelfPlayEpisodeModule, createArithmeticSelfPlayEpisodes } from "../../src/tasks/arithmetic/arithmetic-self-play-episodes.js";
import { debateEpisodeModule } from "../../src/tasks/debate/debate-episodes.js";
import { proposerSolverEpisodeModule } from "../../src/tasks/proposer-solver/proposer-solver-episodes.js";
import { ticTacToeEpisodeModule } from "../../src/tasks/tic-tac-toe/tic-tac-toe-episodes.js";

describe("the built-in episode modules", () => {
  it("give, from the build, the episodes their factories give here, options included", async () => {
    const options = { solvers: 3, reward: { kind: "gaussian" as const, target: 0.25, sigma: 0.2 } };
    const module = arithmeticSelfPlayEpisodeModule(options);
    expect(module).toMatchObject({ exportName: "createArithmeticSelfPlayEpisodes", options });
    expect(module.module).toMatch(/^file:.*\/dist\/src\/tasks\/arithmetic\/arithmetic-self-play-episodes\.js$/);
    const loaded = await loadEpisodeModule(module);
    const here = createArithmeticSelfPlayEpisodes(options);
    expect(loaded.map((episode) => episode.type)).toEqual(["arithmetic-propose", "arithmetic-solve"]);
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(here));
    expect((await loadEpisodeModule(debateEpisodeModule())).map((episode) => episode.type)).toEqual(["debate"]);
    expect((await loadEpisodeModule(proposerSolverEpisodeModule())).map((episode) => episode.type)).toEqual(["propose", "solve"]);
    const [ticTacToe] = await loadEpisodeModule(ticTacToeEpisodeModule({ maxTokens: 3, temperature: 0.5 }));
    expect([ticTacToe?.type, ticTacToe?.roles.map((role) => [role.id, role.sampler])]).toEqual([
      "tic-tac-toe",
      ["x", "o", "opponent"].map((id) => [id, { maxTokens: 3, temperature: 0.5 }]),
    ]);
  });

  it("validate the factory's options", () => {
    expect(() => createArithmeticSelfPlayEpisodes({ solvers: 0 })).toThrow(InvalidInputError);
    expect(() => createArithmeticSelfPlayEpisodes({ reward: { kind: "linear" } })).toThrow(/reward\.kind/);
  });
});
