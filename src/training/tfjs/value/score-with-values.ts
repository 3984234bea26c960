import * as tf from "@tensorflow/tfjs";
import { withWasmMemoryCheck } from "../backend/wasm-memory.js";
import type { ScoredSequence } from "../policy/pack-sequences.js";
import { planBatches } from "../policy/plan-batches.js";
import type { Policy } from "../policy/policy.js";
import type { ValueHead } from "./value-head.js";

/** Per sequence, one entry per completion token. */
export interface ScoresWithValues {
  logprobs: Float64Array[];
  /** V at the position that predicts each completion token. */
  values: Float64Array[];
}

/**
 * `policy.logprobsBatch` and the value head's values from the same forward
 * passes (no gradients): the π_old and V_old of a classic PPO update.
 */
export async function scoreWithValues(policy: Policy, valueHead: ValueHead, sequences: readonly ScoredSequence[]): Promise<ScoresWithValues> {
  const logprobs = new Array<Float64Array>(sequences.length);
  const values = new Array<Float64Array>(sequences.length);
  for (const batch of planBatches(sequences, policy.maxBatchTokens)) {
    const members = batch.map((index) => sequences[index] as ScoredSequence);
    const [flatLogprobs, flatValues] = await withWasmMemoryCheck("scoring sequences with values", async () => {
      const [logprobTensor, valueTensor] = tf.tidy(() => {
        const outputs = policy.completionOutputs(members, { withGradients: false, hiddenStates: true });
        return [outputs.logprobs, valueHead.values(outputs.hiddenStates as tf.Tensor2D)] as const;
      });
      try {
        return [await logprobTensor.data<"float32">(), await valueTensor.data<"float32">()] as const;
      } finally {
        logprobTensor.dispose();
        valueTensor.dispose();
      }
    });
    let offset = 0;
    batch.forEach((index, member) => {
      const count = (members[member] as ScoredSequence).completionTokenIds.length;
      logprobs[index] = Float64Array.from(flatLogprobs.subarray(offset, offset + count));
      values[index] = Float64Array.from(flatValues.subarray(offset, offset + count));
      offset += count;
    });
  }
  return { logprobs, values };
}
