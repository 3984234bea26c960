import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { expectTrainsAndResumes } from "../train-and-resume.js";

describe("the exact-match environment (real engine, bundled base)", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-exact-match-training-"));
  });

  it("trains clustered questions with the learnable frontier and adaptive groups, and a killed run resumes to the uninterrupted one", async () => {
    const environment = () => createExactMatchEnvironment({ prompts: 4, groupSize: 4, maxTokens: 6, evaluateQuestions: 8 });
    const steps = await expectTrainsAndResumes({
      environment,
      modelPath: bundledArithmeticBase(),
      folder: join(folder, "learnable"),
      configuration: { steps: 2, seed: 3, sequences: 16, evaluateEvery: 0, frontier: { mode: "learnable", groupSizing: { mode: "adaptive" } }, trainer: { optimizer: { learningRate: 1e-3 } } },
      // Killed in step 2: the resumed run starts from the pass rates step 1 recorded, which size step 2's groups.
      killAt: 2,
    });
    for (const line of steps) {
      expect(Object.keys(line.frontier.reasons).every((rule) => rule === "learnable-weighted" || rule === "uniform-floor")).toBe(true);
      expect(Object.values(line.frontier.targets).reduce((sum, count) => sum + count, 0)).toBe(4);
      expect(Object.keys(line.frontier.groupSizes ?? {}).sort()).toEqual(Object.keys(line.frontier.targets).sort());
    }
  });

  it("trains the bundled base with records on every step, exactMatch's mean on every line, and a killed run resumes to the uninterrupted one", async () => {
    // The base answers about a third of the questions, so the groups disagree.
    const environment = () => createExactMatchEnvironment({ prompts: 4, groupSize: 8, maxTokens: 6, evaluateQuestions: 16 });
    const steps = await expectTrainsAndResumes({
      environment,
      modelPath: bundledArithmeticBase(),
      folder: join(folder, "uniform"),
      configuration: { steps: 3, seed: 2, sequences: 16, evaluateEvery: 2, trainer: { optimizer: { learningRate: 1e-3 } } },
      killAt: 3,
    });
    for (const line of steps) expect(line.environment["exactMatch.mean"]).toBeCloseTo(line.rewards.student as number, 12);
  });
});
