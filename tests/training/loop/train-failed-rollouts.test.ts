import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { EnvironmentFactory } from "../../../src/environments/environment.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { RolloutsFailedError } from "../../../src/training/loop/errors/index.js";
import { train } from "../../../src/training/loop/train.js";
import { findTrainingCheckpoint } from "../../../src/training/loop/training-checkpoint-files.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";

/** Echo episodes whose verifier's extractAnswer throws a TypeError on every completion; imported through vitest like the code under test. */
const THROWING_EPISODES = `
import { ArtifactStore, ExactMatchVerifier, RoleSchema, SingleTurnEpisode } from "${join(import.meta.dirname, "../../../src/index.ts")}";
import { z } from "zod";
class Echo extends SingleTurnEpisode {
  type = "echo";
  roles = [RoleSchema.parse({ id: "student", sampler: { maxTokens: 2 } })];
  verifier = new ExactMatchVerifier({ roleId: "student", extractAnswer: (completion) => completion.answer.trim() });
  roleId = "student";
  artifactSchema = z.object({ question: z.string(), expected: z.string() });
  prompt(artifact) { return [{ role: "user", content: artifact.question }]; }
  finalize(state, artifact) { return { expected: artifact.expected }; }
}
export const createEpisodes = () => [new Echo()];
export function createEnvironment() {
  return { name: "echo", episodes: { module: import.meta.url, exportName: "createEpisodes" }, stores: { echo: ArtifactStore.of([{ question: "1+1=", expected: "2" }]) }, plan: [{ episodeType: "echo", count: 2, groupSize: 2 }] };
}
`;

describe("train() when rollouts keep failing (real engine)", () => {
  let folder: string;
  let modelPath: string;
  let createEnvironment: EnvironmentFactory;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-failed-rollouts-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    await writeFile(join(folder, "throwing.js"), THROWING_EPISODES);
    ({ createEnvironment } = (await import(join(folder, "throwing.js"))) as { createEnvironment: EnvironmentFactory });
  });

  it("stops with RolloutsFailedError after maxFailedSteps steps with at least maxFailedFraction failed, naming the stage, the error and a rollout", async () => {
    const directory = join(folder, "run");
    const environment = await createEnvironment(undefined);
    const run = train({ environment, modelPath, directory, configuration: { steps: 5, evaluateEvery: 0, sequences: 4, maxFailedFraction: 1, maxFailedSteps: 2 }, trainer: "tfjs" });
    await expect(run).rejects.toThrow(RolloutsFailedError);
    await expect(run).rejects.toThrow(/^step 2: 4 of 4 rollouts failed, and 2 steps in a row had at least maxFailedFraction of them fail, so the run stops\. The first: rollout ep\d+ \(echo\) failed at the score stage with TypeError: /);
    const error = (await run.catch((caught: unknown) => caught)) as RolloutsFailedError;
    expect([error.step, error.steps, error.failed, error.total, error.first.stage, error.first.error.name]).toEqual([2, 2, 4, 4, "score", "TypeError"]);
    const rollouts = (await readFile(join(directory, "rollouts.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { rollout: { id: string } });
    expect(rollouts.map((result) => result.rollout.id)).toContain(error.first.rolloutId);
    const steps = (await readFile(join(directory, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { step: number; failures?: object }).filter((line) => line.failures);
    expect(steps.map((line) => [line.step, line.failures])).toEqual([
      [1, { score: { TypeError: 4 } }],
      [2, { score: { TypeError: 4 } }],
    ]);
    expect(existsSync(join(directory, "checkpoints", "step-2.json"))).toBe(true);
    expect(existsSync(join(directory, "final.gguf"))).toBe(false);
  });

  it("a resumed run carries the failing-step streak: it stops at the step the uninterrupted run stops at", async () => {
    const configuration = { steps: 5, evaluateEvery: 0, sequences: 4, maxFailedFraction: 1, maxFailedSteps: 3 };
    const stopped = (run: Promise<unknown>) => run.then(() => undefined, (caught: unknown) => caught as Error);
    const uninterrupted = await stopped(train({ environment: await createEnvironment(undefined), modelPath, directory: join(folder, "run-uninterrupted"), configuration, trainer: "tfjs" }));
    expect(uninterrupted).toBeInstanceOf(RolloutsFailedError);
    expect([(uninterrupted as RolloutsFailedError).step, (uninterrupted as RolloutsFailedError).steps]).toEqual([3, 3]);
    // Killed during step 2, before its checkpoint: step 1's holds a streak of 1, so two more failing steps stop the run.
    const directory = join(folder, "run-killed");
    const kill = (line: { step: number }) => {
      if (line.step === 2) throw new Error("killed");
    };
    expect(await stopped(train({ environment: await createEnvironment(undefined), modelPath, directory, configuration, trainer: "tfjs", onStep: kill }))).toMatchObject({ message: "killed" });
    const { checkpoint } = await findTrainingCheckpoint(directory);
    expect([checkpoint?.step, checkpoint?.streaks]).toEqual([1, { nonFiniteUpdates: 0, failingSteps: 1 }]);
    const resumed = await stopped(train({ environment: await createEnvironment(undefined), modelPath, directory, configuration, trainer: "tfjs", resume: checkpoint }));
    expect(resumed).toBeInstanceOf(RolloutsFailedError);
    expect([(resumed as RolloutsFailedError).step, (resumed as RolloutsFailedError).steps]).toEqual([3, 3]);
  });

  it("logs a step whose rollouts all scored with empty failures", async () => {
    const directory = join(folder, "run-scored");
    const environment = await createExactMatchEnvironment({ prompts: 1, groupSize: 2, maxTokens: 2, evaluateQuestions: 1 });
    await train({ environment, modelPath, directory, configuration: { steps: 1, evaluateEvery: 0, sequences: 4 }, trainer: "tfjs" });
    const [step] = (await readFile(join(directory, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { failures?: object; firstFailure?: object }).filter((line) => line.failures);
    expect(step).toMatchObject({ failures: {}, rollouts: { scored: 2, failed: 0 } });
    expect(step?.firstFailure).toBeUndefined();
  });

  it("refuses maxFailedFraction outside (0, 1] and maxFailedSteps below 1 before any file", async () => {
    const environment = await createExactMatchEnvironment({ prompts: 1 });
    const directory = join(folder, "run-bad-configuration");
    await expect(train({ environment, modelPath, directory, configuration: { maxFailedFraction: 0 } })).rejects.toThrow(/^configuration\.maxFailedFraction: got 0; expected /);
    await expect(train({ environment, modelPath, directory, configuration: { maxFailedSteps: 0 } })).rejects.toThrow(InvalidInputError);
    expect(existsSync(directory)).toBe(false);
  });
});
