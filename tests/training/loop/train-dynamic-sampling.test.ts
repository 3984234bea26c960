import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { train } from "../../../src/training/loop/train.js";
import type { TrainingStepMetrics } from "../../../src/training/loop/training-step-metrics.js";
import { expectTrainsAndResumes } from "../../tasks/train-and-resume.js";

interface RolloutLine {
  rollout: { id: string; groupId: string };
  rewards: Record<string, number>;
}

/** Each step's rollouts.jsonl lines: the step's draws of 4 questions × 4 answers, in order. */
async function rolloutsByStep(directory: string, steps: readonly TrainingStepMetrics[]): Promise<RolloutLine[][]> {
  const lines = (await readFile(join(directory, "rollouts.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as RolloutLine);
  expect(lines).toHaveLength(steps.reduce((sum, step) => sum + 16 * step.groups.draws, 0));
  let next = 0;
  return steps.map((step) => lines.slice(next, (next += 16 * step.groups.draws)));
}

/** Groups whose answers' rewards differ, counted from the rollouts themselves. */
function countInformative(lines: readonly RolloutLine[]): number {
  const rewards = new Map<string, Set<number>>();
  for (const line of lines) rewards.set(line.rollout.groupId, (rewards.get(line.rollout.groupId) ?? new Set()).add(line.rewards.student as number));
  return [...rewards.values()].filter((distinct) => distinct.size > 1).length;
}

// The base answers about a third of the questions, so some groups of four agree and some do not.
const environment = () => createExactMatchEnvironment({ prompts: 4, groupSize: 4, maxTokens: 6, evaluateQuestions: 8 });

describe("train() with dynamic sampling (exact-match on the project-made model, real engine)", () => {
  it("draws until each step has 4 informative groups, trains on those alone, logs every rollout, and a killed run resumes to the uninterrupted one", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-dynamic-sampling-"));
    const steps = await expectTrainsAndResumes({
      environment,
      modelPath: bundledArithmeticBase(),
      folder,
      configuration: { steps: 2, seed: 2, sequences: 16, evaluateEvery: 0, dynamicSampling: { enabled: true, maxDraws: 4 }, trainer: { optimizer: { learningRate: 1e-3 } } },
      killAt: 2,
      trainer: "ggml",
    });
    // The first step needed more than one draw: the resumed run redrew as the uninterrupted one did.
    expect(steps[0]?.groups.draws).toBeGreaterThan(1);
    const rollouts = await rolloutsByStep(join(folder, "uninterrupted"), steps);
    steps.forEach((step, index) => {
      const { groups, trainedRecords, skippedRecords } = step;
      expect(groups.informative, `step ${step.step}`).toBe(countInformative(rollouts[index] as RolloutLine[]));
      expect(groups.drawn).toBe(4 * groups.draws);
      expect(groups.target).toBe(4);
      expect(groups.kept).toBe(Math.min(groups.informative, 4));
      expect(groups.dropped).toBe(groups.drawn - groups.kept);
      expect(groups.reachedTarget).toBe(groups.informative >= 4);
      // Four answers per kept group reach the update; no all-equal group does.
      expect(trainedRecords + Object.values(skippedRecords).reduce((sum, count) => sum + count, 0)).toBe(4 * groups.kept);
      expect(skippedRecords.zeroAdvantage).toBe(0);
    });
  });

  it("logs a step that misses its target at maxDraws with reachedTarget false, and the run goes on", async () => {
    const directory = join(await mkdtemp(join(tmpdir(), "selfplay-dynamic-sampling-missed-")), "run");
    const steps: TrainingStepMetrics[] = [];
    const configuration = { steps: 1, seed: 2, sequences: 16, evaluateEvery: 0, dynamicSampling: { enabled: true, targetGroups: 16, maxDraws: 2 } };
    await train({ environment: await environment(), modelPath: bundledArithmeticBase(), directory, configuration, trainer: "ggml", onStep: (line) => steps.push(line) });
    expect(steps.map((line) => [line.groups.draws, line.groups.drawn, line.groups.target, line.groups.reachedTarget])).toEqual([[2, 8, 16, false]]);
    expect(steps[0]?.groups.kept).toBe(steps[0]?.groups.informative);
    expect(existsSync(join(directory, "final.gguf"))).toBe(true);
  });
});
