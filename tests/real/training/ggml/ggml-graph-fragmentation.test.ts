import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomLoraAdapter } from "../../../../src/inference/model-files/create-random-lora-adapter.js";
import { GgmlPolicy } from "../../../../src/training/ggml/ggml-policy.js";
import type { ScoredSequence } from "../../../../src/training/tfjs/policy/pack-sequences.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";

// The chunk shape that aborted the process in a proposer/solver run on SmolLM2 (a rank-32 LoRA): one 36-token prompt
// and completions of 11, 28 and 32 tokens, 104 packed tokens and 71 targets. Its training graph overflows gallocr's
// 256 free blocks; the policy must fall back to keeping the forward's tensors, not abort.
const PROMPT = Array.from({ length: 36 }, (_, index) => 100 + index);
const SEQUENCES: ScoredSequence[] = [11, 28, 32].map((length, sequence) => ({
  promptTokenIds: PROMPT,
  completionTokenIds: Array.from({ length }, (_, index) => 200 + 7 * sequence + index),
  temperature: 0.7,
}));

let folder: string;
let adapterPath: string;

beforeAll(async () => {
  if (!realModelAvailable) return;
  folder = await mkdtemp(join(tmpdir(), "selfplay-real-fragmentation-"));
  adapterPath = join(folder, "adapter.gguf");
  await createRandomLoraAdapter({ baseModelPath: SMOLLM2_PATH, path: adapterPath, rank: 32, alpha: 64, seed: 1 });
}, 120_000);
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.skipIf(!realModelAvailable)(`the ggml trainer on a chunk whose graph overflows gallocr's free list${REAL_MODEL_SKIP_REASON}`, () => {
  it("trains it with the forward's tensors kept: the gradient is the one of the three sequences chunked alone", async () => {
    const gradientsAt = async (maxChunkTokens: number) => {
      const policy = await GgmlPolicy.load({ modelPath: SMOLLM2_PATH, loraPath: adapterPath, trainable: true, threads: 2, maxChunkTokens });
      try {
        const result = await policy.accumulateGradients(SEQUENCES, { entropy: true }, ({ logprobs, entropy }) => ({
          logprobs: logprobs.map(() => 1 / 71),
          ...(entropy && { entropy: entropy.map(() => 0.01) }),
        }));
        const names = policy.native.tensors().filter((tensor) => tensor.trainable).map((tensor) => tensor.name);
        return { logprobs: result.logprobs, gradient: Float64Array.from(names.flatMap((name) => Array.from(policy.native.readTensor(name, "gradient")))) };
      } finally {
        await policy.dispose();
      }
    };
    const packed = await gradientsAt(128);
    const alone = await gradientsAt(1);
    let dot = 0;
    let packedNorm = 0;
    let aloneNorm = 0;
    packed.gradient.forEach((value, index) => {
      const other = alone.gradient[index] as number;
      dot += value * other;
      packedNorm += value * value;
      aloneNorm += other * other;
    });
    expect(packedNorm).toBeGreaterThan(0);
    expect(dot / Math.sqrt(packedNorm * aloneNorm)).toBeGreaterThan(0.9999);
    packed.logprobs.forEach((value, index) => expect(value).toBeCloseTo(alone.logprobs[index] as number, 3));
  }, 240_000);
});
