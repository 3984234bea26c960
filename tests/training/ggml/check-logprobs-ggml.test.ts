import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { checkLogprobs } from "../../../src/training/tfjs/check-logprobs.js";
import { GgmlPolicy } from "../../../src/training/ggml/ggml-policy.js";
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
    const plain = await GgmlPolicy.load({ modelPath });
    const adapted = await GgmlPolicy.load({ modelPath, loraPath });
    const sequence = [{ promptTokenIds: [1, 50, 60, 70], completionTokenIds: [80, 90, 100], temperature: 1 }];
    const [without] = await plain.logprobsBatch(sequence);
    const [withAdapter] = await adapted.logprobsBatch(sequence);
    await plain.dispose();
    await adapted.dispose();
    expect(Math.max(...without!.map((value, index) => Math.abs(value - withAdapter![index]!)))).toBeGreaterThan(1e-3);
  });

  // q8_0 products quantise their input to q8_0 first: a last-bit difference anywhere upstream moves a
  // rounding step and the logprob by up to ~1e-2. The trainer's attention adds in the engine's order
  // (keys at the cache's slots, the engine's kernels), so its numbers are the engine's bit for bit.
  // q4_0 matrices sit in the engine's CPU_REPACK buffer on x86 and ARM: the trainer's must too.
  it.each(["q8_0", "q4_0"] as const)("reproduces the engine's arithmetic on a %s model: within 1e-5, packed or not", async (weightType) => {
    const quantisedPath = (await createRandomModel({ path: join(folder, `medium-${weightType}.gguf`), preset: "medium", architecture: "llama", weightType, seed: 1 })).path;
    const result = await checkLogprobs({ modelPath: quantisedPath, tokens: 400, sequences: 4, seed: 3, trainer: "ggml", contextSize: 256 });
    expect(result.tokens).toBeGreaterThanOrEqual(400);
    expect(result.maxAbsDiff).toBeLessThanOrEqual(1e-5);
    expect(result.engineFloor?.tokens).toBeGreaterThan(0);

    const sequences = [
      { promptTokenIds: [1, 50, 60, 70, 80], completionTokenIds: Array.from({ length: 40 }, (_, index) => 32 + ((index * 7) % 90)), temperature: 1 },
      { promptTokenIds: [1, 90], completionTokenIds: Array.from({ length: 70 }, (_, index) => 40 + ((index * 11) % 80)), temperature: 0.7 },
      { promptTokenIds: [1, 33, 34], completionTokenIds: [35, 36, 37], temperature: 1 },
    ];
    const scoreWith = async (maxChunkTokens: number) => {
      const policy = await GgmlPolicy.load({ modelPath: quantisedPath, maxChunkTokens });
      try {
        return (await policy.logprobsBatch(sequences)).map((values) => [...values]);
      } finally {
        await policy.dispose();
      }
    };
    // Each sequence in a row of its own, or all three in one: the same numbers exactly.
    expect(await scoreWith(1)).toEqual(await scoreWith(10_000));
  });

  it("a trainable adapter's forward pass reads the base as the engine holds it (f16, q8_0, repacked q4_0): the same logprobs as a forward-only policy", async () => {
    for (const weightType of ["f16", "q8_0", "q4_0"] as const) {
      const basePath = (await createRandomModel({ path: join(folder, `tiny-${weightType}.gguf`), preset: "medium", architecture: "qwen2", weightType, seed: 2 })).path;
      const loraPath = join(folder, `adapter-${weightType}.gguf`);
      await writeTestAdapter({ path: loraPath, modelPath: basePath, targets: ["blk.0.attn_q.weight", "blk.1.ffn_down.weight"], rank: 4, alpha: 8, seed: 2 });
      const sequence = [{ promptTokenIds: [1, 50, 60, 70], completionTokenIds: [80, 90, 100, 110, 120], temperature: 1 }];
      const scoreWith = async (trainable: boolean) => {
        const policy = await GgmlPolicy.load({ modelPath: basePath, loraPath, trainable });
        try {
          const logprobs = [...((await policy.logprobsBatch(sequence))[0] as Float64Array)];
          if (trainable) {
            // The backward reads the plain (f32 for f16) copy: the factors get a finite, non-zero gradient.
            await policy.accumulateGradients(sequence, { entropy: false }, ({ logprobs: values }) => ({ logprobs: new Float32Array(values.length).fill(1) }));
            const gradient = policy.native.readTensor("blk.0.attn_q.weight.lora_a", "gradient");
            expect(gradient.every(Number.isFinite)).toBe(true);
            expect(gradient.some((value) => value !== 0)).toBe(true);
          }
          return logprobs;
        } finally {
          await policy.dispose();
        }
      };
      expect(await scoreWith(true)).toEqual(await scoreWith(false));
    }
  });
});
