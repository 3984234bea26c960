import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { isHeldOutQuestion, twoDigitQuestions } from "../../../src/tasks/exact-match/exact-match-questions.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { expectTrainsAndResumes } from "../train-and-resume.js";

describe("the exact-match environment", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-exact-match-"));
  });

  it("holds out a tenth of the default questions by hash and never draws them", () => {
    const all = twoDigitQuestions();
    expect(all).toHaveLength(2 * 90 * 90);
    expect(all.slice(0, 2)).toEqual([{ question: "10+10=", answer: "20" }, { question: "10-10=", answer: "0" }]);
    const heldOut = all.filter(isHeldOutQuestion);
    expect(heldOut.length / all.length).toBeGreaterThan(0.08);
    expect(heldOut.length / all.length).toBeLessThan(0.12);
    const environment = createExactMatchEnvironment();
    const store = environment.stores["exact-match"]!;
    expect(store.size).toBe(all.length - heldOut.length);
  });

  it("names the file and line of a bad question, and a misspelt option with the nearest valid one", async () => {
    const bad = join(folder, "bad.jsonl");
    await writeFile(bad, '{"question": "1+1=", "answer": "2"}\n{"question": "2+2="}\n');
    expect(() => createExactMatchEnvironment({ data: bad })).toThrow(/environment\.data \(.*bad\.jsonl:2\)/);
    await expect(loadEnvironment("exact-match", { prompt: 4 })).rejects.toThrow(/prompt.*prompts/);
  });

  it("trains the bundled base with records on every step, and a killed run resumes to the uninterrupted one (real engine)", async () => {
    // The base answers about a third of the questions, so the groups disagree.
    const environment = () => createExactMatchEnvironment({ prompts: 4, groupSize: 8, maxTokens: 6, evaluateQuestions: 16 });
    await expectTrainsAndResumes({
      environment,
      modelPath: bundledArithmeticBase(),
      folder,
      configuration: { steps: 3, seed: 2, sequences: 16, evaluateEvery: 2, trainer: { optimizer: { learningRate: 1e-3 } } },
      killAt: 3,
    });
  });
});
