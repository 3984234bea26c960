import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import { createTicTacToeEnvironment } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import { train } from "../../../src/training/loop/train.js";
import { findTrainingCheckpoint } from "../../../src/training/loop/training-checkpoint-files.js";
import { expectKilledDuringStep } from "./killed-during-step.js";
import { nativeAddon, skipNote } from "../../inference/native/native-addon-for-tests.js";

async function rollouts(directory: string): Promise<GenerateResult[]> {
  return (await readFile(join(directory, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
}

/** Each evaluation line's step and the opponents its figures name (`league.<name>.…`). */
async function evaluatedOpponents(directory: string): Promise<[number, string[]][]> {
  const lines = (await readFile(join(directory, "metrics.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { step: number; heldOutAccuracy?: number; figures?: Record<string, number> });
  return lines.filter((line) => line.heldOutAccuracy !== undefined).map((line) => [line.step, [...new Set(Object.keys(line.figures ?? {}).filter((key) => key.startsWith("league.")).map((key) => key.split(".")[1]!))]]);
}

/** Each rollout's id, and the policy version of each of its Steps by role. */
const versions = (results: readonly GenerateResult[]) => results.map((result) => [result.rollout.id, result.rollout.steps.map((step) => `${step.roleId}@${step.policyVersion}`)]);

describe("league opponents on the engine (tic-tac-toe, a tiny project-made model)", () => {
  let folder: string;
  let modelPath: string;
  const options = { prompts: 2, groupSize: 4, evaluateGames: 2, opponent: "base" };
  const configuration = {
    sequences: 8,
    steps: 3,
    seed: 9,
    evaluateEvery: 1,
    keepPolicies: 1,
    opponents: "league" as const,
    league: { size: 2, currentShare: 0.5 },
    environment: options,
    trainer: { algorithm: "grpo" as const, epochs: 1, minibatchSize: 64, optimizer: { learningRate: 1e-3, weightDecay: 0 } },
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-league-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
  });

  it.skipIf(nativeAddon.binding === undefined)(`draws each game's opponent from the kept snapshots, records their versions, trains only the policy's seat, evaluates against every snapshot but the current one, and resumes with the same draws${skipNote}`, async () => {
    const uninterrupted = join(folder, "uninterrupted");
    await train({ environment: createTicTacToeEnvironment(options), modelPath, directory: uninterrupted, configuration });
    const results = await rollouts(uninterrupted);
    expect(results).toHaveLength(24);
    // The league before step s (1-based): version 0 alone, then [0, 1], then the 2 most recent, [1, 2].
    const league = [[0], [0, 1], [1, 2]];
    const opponentVersions = new Set<number>();
    results.forEach((result, index) => {
      const step = Math.floor(index / 8);
      const moves = result.rollout.steps;
      const opponent = moves.filter((move) => move.roleId === "opponent").map((move) => move.policyVersion);
      for (const move of moves) if (move.roleId !== "opponent") expect(move.policyVersion).toBe(step);
      // One opponent a game: the current policy (version `step`) or a kept snapshot.
      expect(new Set(opponent).size).toBeLessThanOrEqual(1);
      for (const version of opponent) {
        expect([step, ...league[step]!]).toContain(version);
        opponentVersions.add(version);
      }
    });
    expect(opponentVersions.size).toBeGreaterThan(1);

    // Only the policy's seat trains: its Steps are the step's records (trained, or skipped for a zero advantage), the opponent's never.
    const metrics = (await readFile(join(uninterrupted, "metrics.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
    const stepLines = metrics.filter((line) => line.rollouts !== undefined);
    stepLines.forEach((line, index) => {
      const own = results.slice(8 * index, 8 * index + 8).flatMap((result) => result.rollout.steps).filter((move) => move.roleId !== "opponent").length;
      const skipped = Object.values(line.skippedRecords as Record<string, number>).reduce((sum, count) => sum + count, 0);
      expect((line.trainedRecords as number) + skipped).toBe(own);
      // The step line's record by opponent version: every game of the step, under the versions its opponents played as.
      const opponents = line.opponents as Record<string, { games: number }>;
      const played = new Set(results.slice(8 * index, 8 * index + 8).flatMap((result) => result.rollout.steps.filter((move) => move.roleId === "opponent").map((move) => `v${move.policyVersion}`)));
      expect(new Set(Object.keys(opponents))).toEqual(played);
      expect(Object.values(opponents).reduce((sum, entry) => sum + entry.games, 0)).toBe(8);
    });

    // keepPolicies 1, yet the league's versions (and the one a resume from the previous checkpoint reopens) stay.
    const policies = (await readdir(join(uninterrupted, "policies"))).filter((name) => name.startsWith("policy-v")).sort();
    expect(policies).toEqual(["policy-v1.gguf", "policy-v2.gguf", "policy-v3.gguf"]);

    // Every evaluation plays the league as it stands, but the current version (the policy itself): none at step 0, then v0, v1, v2.
    const evaluated: [number, string[]][] = [[0, []], [1, ["v0"]], [2, ["v1"]], [3, ["v2"]]];
    expect(await evaluatedOpponents(uninterrupted)).toEqual(evaluated);
    for (const line of metrics.filter((entry) => entry.heldOutAccuracy !== undefined && entry.step !== 0)) {
      const figures = line.figures as Record<string, number>;
      const name = `league.v${(line.step as number) - 1}`;
      for (const seat of ["x", "o"]) expect(["win", "draw", "loss"].reduce((sum, result) => sum + figures[`${name}.${seat}.${result}`]!, 0)).toBeCloseTo(1, 12);
      // n and the accuracy are the fixed players' games alone: 2 in each seat against each.
      expect(line.n).toBe(8);
    }

    const killed = join(folder, "killed");
    await expectKilledDuringStep(3, (onStep) => train({ environment: createTicTacToeEnvironment(options), modelPath, directory: killed, configuration, onStep }));
    const { checkpoint } = await findTrainingCheckpoint(killed);
    expect(checkpoint?.step).toBe(2);
    expect(checkpoint?.league).toEqual({ versions: [1, 2] });
    await train({ environment: createTicTacToeEnvironment(options), modelPath, directory: killed, configuration, resume: checkpoint! });
    expect(versions(await rollouts(killed))).toEqual(versions(results));
    // The resumed run's evaluation plays the league its checkpoint restored.
    expect(await evaluatedOpponents(killed)).toEqual(evaluated);
  }, 300_000);

  it("refuses frozen or league opponents for an environment that binds no role to a frozen policy, before writing anything", async () => {
    for (const opponents of ["frozen", "league"] as const) {
      const directory = join(folder, `refused-${opponents}`);
      await expect(train({ environment: createArithmeticEnvironment(), modelPath, directory, configuration: { steps: 1, opponents } })).rejects.toThrow(
        /configuration\.opponents.*"current": the arithmetic environment binds no role to a frozen policy/,
      );
      await expect(readdir(directory)).rejects.toThrow(/ENOENT/);
    }
  });
});
