import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { checkLogprobs } from "../../../src/training/tfjs/check-logprobs.js";
import { writeTestAdapter } from "../helpers/write-test-adapter.js";

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-check-logprobs-"));
  modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 11, initialisationScale: 0.1 })).path;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("checkLogprobs", () => {
  it("samples at least the tokens asked for on parallel sequences at both temperatures, and reports their agreement", async () => {
    const result = await checkLogprobs({ modelPath, tokens: 300, sequences: 4, seed: 3 });
    expect(result).toMatchObject({ modelPath, loraPath: null, klEstimator: "k3", contextSize: 256 });
    expect(result.tokens).toBeGreaterThanOrEqual(300);
    expect(result.sequences % 4).toBe(0);
    // One prompt in four nearly fills the context, so completions reach its last position.
    expect(result.maxPosition).toBe(255);
    expect(result.maxAbsDiff).toBeLessThan(1e-4);
    expect(result.meanAbsDiff).toBeLessThanOrEqual(result.maxAbsDiff);
    expect(result.mismatchKl).toBeGreaterThanOrEqual(0);
    expect(result.mismatchKl).toBeLessThan(1e-8);
    expect(result.byTemperature.map((entry) => entry.temperature)).toEqual([0.7, 1]);
    expect(result.byTemperature.reduce((sum, entry) => sum + entry.tokens, 0)).toBe(result.tokens);
    expect(result.byTemperature.every((entry) => entry.tokens > 0)).toBe(true);
    expect(result.constrained).toEqual({ tokens: 0, maxAbsDiff: 0, p99AbsDiff: 0, meanAbsDiff: 0, mismatchKl: 0 });
    expect(result.backend).toMatch(/^(wasm|tensorflow) /);
    // Same seed, same samples.
    const again = await checkLogprobs({ modelPath, tokens: 300, sequences: 4, seed: 3 });
    expect(again).toEqual(result);
  });

  it("applies a LoRA adapter on the engine and in tfjs", async () => {
    const loraPath = join(folder, "adapter.gguf");
    await writeTestAdapter({ path: loraPath, modelPath, targets: ["blk.0.attn_q.weight", "blk.1.ffn_gate.weight"], rank: 4, alpha: 8, seed: 1 });
    const result = await checkLogprobs({ modelPath, loraPath, tokens: 200, sequences: 4, seed: 1 });
    expect(result.loraPath).toBe(loraPath);
    expect(result.maxAbsDiff).toBeLessThan(1e-4);
  });

  it("rejects bad options, naming the field", async () => {
    await expect(checkLogprobs({ modelPath, temperatures: [0] })).rejects.toThrow(/temperatures\.0/);
    await expect(checkLogprobs({ modelPath, sequences: 0 })).rejects.toThrow(/sequences/);
  });
});
