import * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { policyLossDerivatives } from "../../../src/training/ggml/policy-loss-derivatives.js";
import { policyLoss } from "../../../src/training/tfjs/losses/policy-loss.js";
import { PolicyLossConfigurationSchema, type PolicyLossConfiguration } from "../../../src/training/update/policy-loss-configuration.js";

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const random = seeded(5);
const count = 64;
const values = (scale: number, offset: number) => Float32Array.from({ length: count }, () => offset + scale * (random() - 0.5));
const oldLogprobs = values(4, -2);
// Ratios from e^-0.6 to e^0.6: inside and outside both clip bounds.
const logprobs = Float32Array.from(oldLogprobs, (value) => value + 1.2 * (random() - 0.5));
const inputs = {
  logprobs,
  oldLogprobs,
  engineLogprobs: Float32Array.from(oldLogprobs, (value) => value + 0.4 * (random() - 0.5)),
  advantages: values(2, 0),
  weights: Float32Array.from({ length: count }, () => 1 / count),
  referenceLogprobs: Float32Array.from(logprobs, (value) => value + 0.6 * (random() - 0.5)),
  entropy: values(1, 2),
};

function tfjsReference(configuration: PolicyLossConfiguration) {
  return tf.tidy(() => {
    const constant = (array: Float32Array) => tf.tensor1d(array);
    const compute = (current: tf.Tensor1D, entropy: tf.Tensor1D) =>
      policyLoss(
        {
          logprobs: current,
          oldLogprobs: constant(inputs.oldLogprobs),
          engineLogprobs: constant(inputs.engineLogprobs),
          advantages: constant(inputs.advantages),
          weights: constant(inputs.weights),
          referenceLogprobs: constant(inputs.referenceLogprobs),
          entropy,
        },
        configuration,
      );
    const logprobGradient = tf.grad((current: tf.Tensor) => compute(current as tf.Tensor1D, constant(inputs.entropy)).loss)(constant(inputs.logprobs));
    // tfjs refuses a gradient that is identically zero (the entropy off): it is zero by definition then.
    const entropyGradient =
      configuration.entropyCoefficient > 0
        ? tf.grad((entropy: tf.Tensor) => compute(constant(inputs.logprobs), entropy as tf.Tensor1D).loss)(constant(inputs.entropy))
        : tf.zeros([count]);
    const parts = compute(constant(inputs.logprobs), constant(inputs.entropy));
    return {
      loss: parts.loss.dataSync()[0] as number,
      kl: parts.kl.dataSync()[0] as number,
      entropy: parts.entropy.dataSync()[0] as number,
      clipFraction: parts.clipFraction.dataSync()[0] as number,
      importanceWeight: parts.importanceWeight.dataSync()[0] as number,
      logprobGradient: logprobGradient.dataSync() as Float32Array,
      entropyGradient: entropyGradient.dataSync() as Float32Array,
    };
  });
}

describe("policyLossDerivatives", () => {
  it.each([
    ["REINFORCE", { objective: "reinforce" }],
    ["the clipped surrogate", { objective: "clipped" }],
    ["the clipped surrogate with clip-higher and a low importance cap", { objective: "clipped", clipHigh: 0.28, importanceCap: 1.05 }],
    ["k3 KL to a reference", { objective: "clipped", klCoefficient: 0.3 }],
    ["an entropy bonus", { objective: "reinforce", entropyCoefficient: 0.01, klCoefficient: 0.1 }],
  ] as const)("matches policyLoss and tf.grads of it for %s", (_, settings) => {
    const configuration = PolicyLossConfigurationSchema.parse(settings);
    const reference = tfjsReference(configuration);
    const ours = policyLossDerivatives(inputs, configuration);
    expect(ours.loss).toBeCloseTo(reference.loss, 5);
    expect(ours.kl).toBeCloseTo(reference.kl, 5);
    expect(ours.entropy).toBeCloseTo(reference.entropy, 5);
    expect(ours.clipFraction).toBeCloseTo(reference.clipFraction, 6);
    expect(ours.importanceWeightSum / count).toBeCloseTo(reference.importanceWeight, 5);
    ours.logprobs.forEach((value, index) => expect(value).toBeCloseTo(reference.logprobGradient[index]!, 6));
    ours.entropyGradients!.forEach((value, index) => expect(value).toBeCloseTo(reference.entropyGradient[index]!, 6));
  });

  it("has some tokens clipped in the test data, so the clip's zero-gradient region is exercised", () => {
    const ours = policyLossDerivatives(inputs, PolicyLossConfigurationSchema.parse({ objective: "clipped" }));
    expect(ours.clipFraction).toBeGreaterThan(0.1);
    expect(ours.logprobs.filter((value) => value === 0).length).toBeGreaterThan(3);
  });

  it("adds up over chunks", () => {
    const configuration = PolicyLossConfigurationSchema.parse({ objective: "clipped", klCoefficient: 0.2, entropyCoefficient: 0.01 });
    const whole = policyLossDerivatives(inputs, configuration);
    const slice = (start: number, end: number) =>
      policyLossDerivatives(Object.fromEntries(Object.entries(inputs).map(([key, array]) => [key, array.subarray(start, end)])) as typeof inputs, configuration);
    const first = slice(0, 20);
    const second = slice(20, count);
    expect(first.loss + second.loss).toBeCloseTo(whole.loss, 6);
    expect(Array.from(first.logprobs).concat(Array.from(second.logprobs))).toEqual(Array.from(whole.logprobs));
  });

  it("asks for reference logprobs when the KL term is on", () => {
    const { referenceLogprobs: _, ...rest } = inputs;
    expect(() => policyLossDerivatives(rest, PolicyLossConfigurationSchema.parse({ klCoefficient: 0.1 }))).toThrow(/referenceLogprobs/);
  });
});
