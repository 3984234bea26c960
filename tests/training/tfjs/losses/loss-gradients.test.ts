import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { aggregationWeights } from "../../../../src/training/update/aggregation-weights.js";
import { policyLoss } from "../../../../src/training/tfjs/losses/policy-loss.js";
import { PolicyLossConfigurationSchema, type PolicyLossConfiguration } from "../../../../src/training/update/policy-loss-configuration.js";
import { clippedValueLoss } from "../../../../src/training/tfjs/losses/value-loss.js";
import { scoreLogits } from "../../../../src/training/tfjs/policy/score-logits.js";

/**
 * dL/dlogits of every loss form, by tfjs's backward pass through the policy's
 * own last stage (`scoreLogits`: temperature, log-softmax, target pick,
 * entropy), against the same derivative worked out by hand in float64.
 */

const VOCABULARY = 7;
const TEMPERATURES = [1, 0.7, 1, 1.3, 0.9];
const TARGETS = [3, 0, 6, 2, 5];
/** Fixed, irregular logits, so no two entries tie. */
const LOGITS = TEMPERATURES.map((_, row) => Array.from({ length: VOCABULARY }, (_, column) => Math.sin(1.7 * row + 2.3 * column + 0.4) * 2));
/** log π_θ − log π_old per token: ratios e^0.5 (clipped for A > 0), e^0.1, e^−0.5 (clipped for A < 0), e^−0.5 (kept for A > 0), e^0.05. */
const RATIO_LOGS = [0.5, 0.1, -0.5, -0.5, 0.05];
const ADVANTAGES = [1, 1, -1, 1, -0.5];
/** log π_old − log π_engine: importance weights e^0.2, 1, e^−0.1, e^3 (capped at 2), e^0.01. */
const IMPORTANCE_LOGS = [0.2, 0, -0.1, 3, 0.01];
const REFERENCE_OFFSETS = [-0.5, 1, 0.3, -0.2, 0];
/** Two sequences of 2 and 3 tokens. */
const LENGTHS = [2, 3];

interface Float64Rows {
  logprobs: number[][];
  target: number[];
  entropy: number[];
}

/** log softmax(logits / T), each row's target logprob and entropy, in float64. */
function referenceScores(): Float64Rows {
  const logprobs = LOGITS.map((row, index) => {
    const scaled = row.map((value) => value / TEMPERATURES[index]!);
    const largest = Math.max(...scaled);
    const logSum = largest + Math.log(scaled.reduce((sum, value) => sum + Math.exp(value - largest), 0));
    return scaled.map((value) => value - logSum);
  });
  return {
    logprobs,
    target: logprobs.map((row, index) => row[TARGETS[index]!]!),
    entropy: logprobs.map((row) => -row.reduce((sum, value) => sum + Math.exp(value) * value, 0)),
  };
}

/** The tfjs loss and its gradient with respect to the logits. */
function tfjsGradient(configuration: PolicyLossConfiguration, weights: Float32Array): { loss: number; gradient: number[][] } {
  const reference = referenceScores();
  const logits = tf.variable(tf.tensor2d(LOGITS), true);
  const constants = {
    oldLogprobs: tf.tensor1d(reference.target.map((value, index) => value - RATIO_LOGS[index]!)),
    engineLogprobs: tf.tensor1d(reference.target.map((value, index) => value - RATIO_LOGS[index]! - IMPORTANCE_LOGS[index]!)),
    advantages: tf.tensor1d(ADVANTAGES),
    weights: tf.tensor1d(weights),
    referenceLogprobs: tf.tensor1d(reference.target.map((value, index) => value + REFERENCE_OFFSETS[index]!)),
  };
  const { value, grads } = tf.variableGrads(() => {
    const { logprobs, entropy } = scoreLogits(logits as unknown as tf.Tensor2D, Float32Array.from(TEMPERATURES), Int32Array.from(TARGETS), true);
    return policyLoss({ ...constants, logprobs, ...(entropy && { entropy }) }, configuration).loss;
  }, [logits]);
  const result = { loss: value.dataSync()[0]!, gradient: (grads[logits.name]!.arraySync() as number[][]) };
  logits.dispose();
  return result;
}

/** The same loss and dL/dlogits in float64, term by term from the definitions. */
function referenceGradient(configuration: PolicyLossConfiguration, weights: Float32Array): { loss: number; gradient: number[][] } {
  const { logprobs, target, entropy } = referenceScores();
  let loss = 0;
  const gradient = LOGITS.map((row, index) => {
    const weight = weights[index]!;
    const importance = Math.min(Math.exp(IMPORTANCE_LOGS[index]!), configuration.importanceCap);
    const advantage = ADVANTAGES[index]!;
    // dL/d(logprob of the target) and dL/d(entropy) of this token.
    let byLogprob: number;
    if (configuration.objective === "reinforce") {
      loss -= weight * importance * advantage * target[index]!;
      byLogprob = -weight * importance * advantage;
    } else {
      const ratio = Math.exp(RATIO_LOGS[index]!);
      const clippedRatio = Math.min(Math.max(ratio, 1 - configuration.clipLow), 1 + configuration.clipHigh);
      const unclipped = ratio * advantage;
      const clipped = clippedRatio * advantage;
      loss -= weight * importance * Math.min(unclipped, clipped);
      const inside = ratio > 1 - configuration.clipLow && ratio < 1 + configuration.clipHigh;
      byLogprob = unclipped <= clipped || inside ? -weight * importance * advantage * ratio : 0;
    }
    if (configuration.klCoefficient > 0) {
      const difference = REFERENCE_OFFSETS[index]!;
      loss += configuration.klCoefficient * weight * (Math.exp(difference) - difference - 1);
      byLogprob += configuration.klCoefficient * weight * (1 - Math.exp(difference));
    }
    loss -= configuration.entropyCoefficient * weight * entropy[index]!;
    const byEntropy = -configuration.entropyCoefficient * weight;
    const rowLogprobs = logprobs[index]!;
    return row.map((_, column) => {
      const probability = Math.exp(rowLogprobs[column]!);
      const pick = (column === TARGETS[index] ? 1 : 0) - probability;
      const entropyTerm = -probability * (rowLogprobs[column]! + entropy[index]!);
      return (byLogprob * pick + byEntropy * entropyTerm) / TEMPERATURES[index]!;
    });
  });
  return { loss, gradient };
}

function largestDifference(left: number[][], right: number[][]): number {
  return Math.max(...left.flatMap((row, index) => row.map((value, column) => Math.abs(value - right[index]![column]!))));
}

describe("dL/dlogits of each loss form against a float64 reference", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it.each([
    ["REINFORCE", { objective: "reinforce" }, "token-mean"],
    ["clipped surrogate with truncated importance weights", { objective: "clipped", importanceCap: 2 }, "token-mean"],
    ["clipped, clip-higher, Dr. GRPO aggregation", { objective: "clipped", clipHigh: 0.28 }, "sequence-mean-token-sum"],
    ["k3 KL to the reference", { objective: "clipped", klCoefficient: 0.3 }, "sequence-mean-token-mean"],
    ["entropy bonus", { objective: "reinforce", entropyCoefficient: 0.5 }, "token-mean"],
    ["everything at once", { objective: "clipped", klCoefficient: 0.1, entropyCoefficient: 0.01 }, "token-mean"],
  ] as const)("%s: within 1e-6", (_, overrides, aggregation) => {
    const configuration = PolicyLossConfigurationSchema.parse(overrides);
    const weights = aggregationWeights(LENGTHS, aggregation, 4);
    const tfjs = tfjsGradient(configuration, weights);
    const reference = referenceGradient(configuration, weights);
    const difference = largestDifference(tfjs.gradient, reference.gradient);
    expect(difference).toBeLessThan(1e-6);
    expect(Math.abs(tfjs.loss - reference.loss)).toBeLessThan(1e-6);
    // A reference that is all zeros would pass trivially.
    expect(Math.max(...reference.gradient.flat().map(Math.abs))).toBeGreaterThan(0.01);
  });

  it("clipped value loss: dL/dV within 1e-6, zero where the clipped term is larger and V left the clip range", () => {
    // Token 0: inside the clip range. Token 1: moved 0.5 > ε = 0.2 towards the return, clipped term larger → no gradient.
    // Token 2: moved 0.5 away from the return, unclipped term larger → full gradient. Token 3: unchanged.
    const values = [0.3, 0.9, -0.6, 0.2];
    const oldValues = [0.25, 0.4, -0.1, 0.2];
    const returns = [1, 1.5, 0.5, -0.4];
    const weights = [0.1, 0.4, 0.3, 0.2];
    const clip = 0.2;
    const variable = tf.variable(tf.tensor1d(values), true);
    const { value, grads } = tf.variableGrads(
      () => clippedValueLoss(variable as unknown as tf.Tensor1D, tf.tensor1d(oldValues), tf.tensor1d(returns), tf.tensor1d(weights), clip),
      [variable],
    );
    let loss = 0;
    const expected = values.map((current, index) => {
      const old = oldValues[index]!;
      const target = returns[index]!;
      const clippedValue = old + Math.min(Math.max(current - old, -clip), clip);
      const unclipped = (current - target) ** 2;
      const clipped = (clippedValue - target) ** 2;
      loss += 0.5 * weights[index]! * Math.max(unclipped, clipped);
      if (unclipped >= clipped) return weights[index]! * (current - target);
      return Math.abs(current - old) < clip ? weights[index]! * (clippedValue - target) : 0;
    });
    const gradient = Array.from(grads[variable.name]!.dataSync());
    gradient.forEach((entry, index) => expect(Math.abs(entry - expected[index]!)).toBeLessThan(1e-6));
    expect(expected[1]).toBe(0);
    expect(Math.abs(expected[2]!)).toBeGreaterThan(0.1);
    expect(Math.abs(value.dataSync()[0]! - loss)).toBeLessThan(1e-6);
    variable.dispose();
  });
});
