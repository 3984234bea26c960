import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { expectTrainsAndResumes } from "../../tasks/train-and-resume.js";

describe("train() with the ggml trainer", () => {
  it("trains the bundled base with records on every step, and a killed run resumes to the uninterrupted one (real engine)", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-ggml-train-"));
    // The base answers about a third of the questions, so the groups disagree.
    const environment = () => createExactMatchEnvironment({ prompts: 4, groupSize: 8, maxTokens: 6, evaluateQuestions: 16 });
    await expectTrainsAndResumes({
      environment,
      modelPath: bundledArithmeticBase(),
      folder,
      configuration: { steps: 3, seed: 2, sequences: 16, evaluateEvery: 2, trainer: { optimizer: { learningRate: 1e-3 } } },
      killAt: 3,
      trainer: "ggml",
    });
  });
});
