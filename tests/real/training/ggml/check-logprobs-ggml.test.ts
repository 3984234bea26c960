import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLogprobs, type CheckLogprobsResult } from "../../../../src/training/tfjs/check-logprobs.js";
import { writeTestAdapter } from "../../../training/helpers/write-test-adapter.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";

// `selfplay check-logprobs --trainer ggml` on SmolLM2-135M-Instruct: the engine samples (exact mode), the ggml trainer
// rescores every token. Two sequences to the end of a 256-token context (llama.cpp's smallest): ~450 tokens.
const OPTIONS = { modelPath: SMOLLM2_PATH, tokens: 200, sequences: 2, seed: 1, trainer: "ggml", contextSize: 256, threads: 1 } as const;
const KINDS = ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"];

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-real-check-logprobs-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The bound, p99 ≤ max(1e-3, 2 × the engine's floor), and the engine tier's max ≤ 1e-5, which the trainer meets here too. */
function expectWithinBounds(result: CheckLogprobsResult, label: string): void {
  const floor = result.engineFloor;
  console.log(
    `check-logprobs --trainer ggml on SmolLM2${label}: ${result.tokens} tokens (positions to ${result.maxPosition}), max |Δ| ${result.maxAbsDiff.toExponential(2)}, p99 ${result.p99AbsDiff.toExponential(2)}; ` +
      `engine floor ${floor?.tokens} tokens, max ${floor?.maxAbsDiff.toExponential(2)}, p99 ${floor?.p99AbsDiff.toExponential(2)}`,
  );
  expect(result.tokens).toBeGreaterThanOrEqual(200);
  expect(result.maxPosition).toBe(255);
  expect(floor?.tokens).toBeGreaterThan(100);
  expect(result.p99AbsDiff).toBeLessThanOrEqual(Math.max(1e-3, 2 * (floor?.p99AbsDiff ?? Infinity)));
  expect(result.maxAbsDiff).toBeLessThanOrEqual(1e-5);
}

describe.skipIf(!realModelAvailable)(`checkLogprobs with the ggml trainer on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  it("agrees with the engine: p99 within max(1e-3, 2× the floor), max within 1e-5", async () => {
    const result = await checkLogprobs(OPTIONS);
    expect(result).toMatchObject({ trainer: "ggml", backend: "ggml cpu", loraPath: null });
    expectWithinBounds(result, "");
  });

  it("agrees with the engine with a LoRA (rank 6 on every projection of blocks 0, 14 and 29, factors of σ 0.02) on both sides: the same bounds", async () => {
    const loraPath = join(folder, "adapter.gguf");
    // Rank 6: llama.cpp's LoRA products stay on one kernel at every batch size. σ 0.02 moves the logprobs by p99 0.35
    // (what the trainer would miss if it dropped the adapter); at σ 0.05 this adapter drives SmolLM2 where the last
    // bits of AMX's one-row and many-row kernels grow to 0.1 nats, in the engine against itself too (docs/ggml-trainer.md).
    await writeTestAdapter({ path: loraPath, modelPath: SMOLLM2_PATH, targets: [0, 14, 29].flatMap((block) => KINDS.map((kind) => `blk.${block}.${kind}.weight`)), rank: 6, alpha: 12, seed: 1, sigma: 0.02 });
    const result = await checkLogprobs({ ...OPTIONS, loraPath });
    expect(result.loraPath).toBe(loraPath);
    expectWithinBounds(result, " + LoRA");
  });
});
