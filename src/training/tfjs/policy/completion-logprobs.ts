import type * as tf from "@tensorflow/tfjs";
import { completionOutputs } from "./completion-outputs.js";
import type { PackedSequences } from "./pack-sequences.js";
import type { PolicyConfiguration } from "./policy-configuration.js";
import type { PolicyWeights } from "./policy-weights.js";
import type { RopeTables } from "./rope-tables.js";

/**
 * The log-probability of every completion token of `packed` under
 * softmax(logits / temperature), flat in the order of `packed.targetTokenIds`:
 * `completionOutputs` without entropy or hidden states. Differentiable with
 * respect to the weights' trainable variables.
 */
export function completionLogprobs(
  weights: PolicyWeights,
  configuration: PolicyConfiguration,
  rope: { tables: RopeTables; rotation: Float32Array },
  packed: PackedSequences,
): tf.Tensor1D {
  return completionOutputs(weights, configuration, rope, packed).logprobs;
}
