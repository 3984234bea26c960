import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";

/**
 * How per-token loss terms become one number, as the RL literature names them:
 * - `token-mean` (DAPO): every trained token of the batch counts the same, so
 *   long answers are not diluted.
 * - `sequence-mean-token-mean` (the original GRPO): each sequence counts the
 *   same; its tokens share its weight, which favours short wrong answers.
 * - `sequence-mean-token-sum` (Dr. GRPO): token sums divided by a constant
 *   length (`maxLength`), which removes the length bias.
 */
export const LossAggregationSchema = z.enum(["token-mean", "sequence-mean-token-mean", "sequence-mean-token-sum"]);
export type LossAggregation = z.infer<typeof LossAggregationSchema>;

/**
 * Per-token weights that turn `sum(weights · term)` into the aggregation, so
 * the loss needs no segment reductions (which the wasm backend lacks).
 * `sequenceLengths[s]` counts the trained tokens of sequence s; tokens are
 * laid out sequence after sequence. Masked-out tokens simply are not listed.
 */
export function aggregationWeights(sequenceLengths: readonly number[], aggregation: LossAggregation, maxLength?: number): Float32Array {
  const total = sequenceLengths.reduce((sum, length) => sum + length, 0);
  const weights = new Float32Array(total);
  const sequences = sequenceLengths.filter((length) => length > 0).length;
  if (total === 0) return weights;
  let offset = 0;
  for (const length of sequenceLengths) {
    let weight: number;
    if (aggregation === "token-mean") weight = 1 / total;
    else if (aggregation === "sequence-mean-token-mean") weight = 1 / (sequences * length);
    else {
      const normaliser = maxLength ?? Math.max(...sequenceLengths);
      if (normaliser < Math.max(...sequenceLengths)) {
        throw new InvalidInputError("maxLength", `at least the longest sequence's ${Math.max(...sequenceLengths)} tokens`, maxLength);
      }
      weight = 1 / (sequences * normaliser);
    }
    weights.fill(weight, offset, offset + length);
    offset += length;
  }
  return weights;
}
