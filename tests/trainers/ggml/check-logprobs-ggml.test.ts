import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { checkLogprobs } from "../../../trainers/check-logprobs.js";
import { writeTestAdapter } from "../helpers/write-test-adapter.js";

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-check-logprobs-ggml-"));
  // The medium preset at its default initialisation scale: the agreement target.
  modelPath = (await createRandomModel({ path: join(folder, "medium.gguf"), preset: "medium", architecture: "qwen2", seed: 11 })).path;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("checkLogprobs with the ggml trainer", () => {
  it("agrees with the engine within 1e-5 (max) over parallel sequences at both temperatures", async () => {
    const result = await checkLogprobs({ modelPath, tokens: 400, sequences: 4, seed: 3, trainer: "ggml", contextSize: 256 });
    expect(result).toMatchObject({ trainer: "ggml", backend: "ggml cpu", loraPath: null });
    expect(result.tokens).toBeGreaterThanOrEqual(400);
    expect(result.maxPosition).toBe(255);
    expect(result.maxAbsDiff).toBeLessThanOrEqual(1e-5);
    expect(result.p99AbsDiff).toBeLessThanOrEqual(result.maxAbsDiff);
    expect(result.byTemperature.every((entry) => entry.maxAbsDiff <= 1e-5)).toBe(true);
  });

  it("applies a LoRA adapter on the engine and on ggml: within 1e-5", async () => {
    const loraPath = join(folder, "adapter.gguf");
    await writeTestAdapter({ path: loraPath, modelPath, targets: ["blk.0.attn_q.weight", "blk.1.ffn_gate.weight", "blk.2.attn_v.weight"], rank: 4, alpha: 8, seed: 1 });
    const result = await checkLogprobs({ modelPath, loraPath, tokens: 200, sequences: 4, seed: 1, trainer: "ggml", contextSize: 256 });
    expect(result.loraPath).toBe(loraPath);
    expect(result.maxAbsDiff).toBeLessThanOrEqual(1e-5);
    // Without the adapter the numbers are far apart, so the check is not vacuous.
    const { GgmlPolicy } = await import("../../../trainers/ggml/ggml-policy.js");
    const plain = await GgmlPolicy.load({ modelPath });
    const adapted = await GgmlPolicy.load({ modelPath, loraPath });
    const sequence = [{ promptTokenIds: [1, 50, 60, 70], completionTokenIds: [80, 90, 100], temperature: 1 }];
    const [without] = await plain.logprobsBatch(sequence);
    const [withAdapter] = await adapted.logprobsBatch(sequence);
    await plain.dispose();
    await adapted.dispose();
    expect(Math.max(...without!.map((value, index) => Math.abs(value - withAdapter![index]!)))).toBeGreaterThan(1e-3);
  });
});
