import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { isHeldOutQuestion, twoDigitCluster, twoDigitQuestions } from "../../../src/tasks/exact-match/exact-match-questions.js";
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
    expect(all.slice(0, 2)).toEqual([{ question: "10+10=", answer: "20", cluster: "add" }, { question: "10-10=", answer: "0", cluster: "subtract" }]);
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

  it("clusters the default questions by operation, carry/borrow and result size", () => {
    expect([twoDigitCluster(12, "+", 34), twoDigitCluster(17, "+", 25), twoDigitCluster(52, "+", 61), twoDigitCluster(58, "+", 67)]).toEqual(["add", "add-carry", "add-hundreds", "add-carry-hundreds"]);
    expect([twoDigitCluster(57, "-", 23), twoDigitCluster(52, "-", 27), twoDigitCluster(23, "-", 57)]).toEqual(["subtract", "subtract-borrow", "subtract-negative"]);
    const clusters = createExactMatchEnvironment().clusters!;
    expect(clusters.names).toEqual(["add", "add-carry", "add-carry-hundreds", "add-hundreds", "subtract", "subtract-borrow", "subtract-negative"]);
    expect(clusters.of({ question: "17+25=", answer: "42", cluster: "add-carry" })).toBe("add-carry");
  });

  it("reads a JSONL cluster key (on every line or none), and names the file, line and field of a bad one", async () => {
    const good = join(folder, "clustered.jsonl");
    await writeFile(good, '{"question": "9+1=", "answer": "10", "cluster": "carry"}\n{"question": "3+1=", "answer": 4, "cluster": "plain"}\n{"question": "19+1=", "answer": "20", "cluster": 7}\n');
    expect(createExactMatchEnvironment({ data: good, heldOut: good }).clusters!.names).toEqual(["7", "carry", "plain"]);
    const unclustered = join(folder, "unclustered.jsonl");
    await writeFile(unclustered, '{"question": "9+1=", "answer": "10"}\n');
    expect(createExactMatchEnvironment({ data: unclustered, heldOut: unclustered }).clusters).toBeUndefined();
    const mixed = join(folder, "mixed.jsonl");
    await writeFile(mixed, '{"question": "9+1=", "answer": "10", "cluster": "carry"}\n{"question": "3+1=", "answer": "4"}\n');
    expect(() => createExactMatchEnvironment({ data: mixed })).toThrow(/environment\.data \(.*mixed\.jsonl:2\)\.cluster.*a "cluster" on every line or on none \(line 1 has one\)/);
    const empty = join(folder, "empty-cluster.jsonl");
    await writeFile(empty, '{"question": "9+1=", "answer": "10", "cluster": ""}\n');
    expect(() => createExactMatchEnvironment({ data: empty })).toThrow(/environment\.data \(.*empty-cluster\.jsonl:1\).*"cluster": a non-empty string or number/);
  });

  it("trains clustered questions with the learnable frontier and adaptive groups, and a killed run resumes to the uninterrupted one (real engine)", async () => {
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
