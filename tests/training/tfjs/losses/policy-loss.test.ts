import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { policyLoss, type PolicyLossInputs } from "../../../../src/training/tfjs/losses/policy-loss.js";
import { PolicyLossConfigurationSchema } from "../../../../src/training/update/policy-loss-configuration.js";

const configuration = (overrides: Record<string, unknown> = {}) => PolicyLossConfigurationSchema.parse(overrides);

/** Value and gradient (with respect to logprobs) of the loss for plain arrays. */
function evaluate(inputs: Record<keyof Omit<PolicyLossInputs, "entropy" | "referenceLogprobs">, number[]> & { referenceLogprobs?: number[] }, overrides: Record<string, unknown> = {}) {
  const tensors = Object.fromEntries(Object.entries(inputs).map(([name, values]) => [name, tf.tensor1d(values)])) as unknown as PolicyLossInputs;
  const { value, grads } = tf.variableGrads(() => policyLoss({ ...tensors, logprobs: logprobVariable as unknown as tf.Tensor1D }, configuration(overrides)).loss);
  const metrics = policyLoss({ ...tensors, logprobs: logprobVariable as unknown as tf.Tensor1D }, configuration(overrides));
  return { loss: value.dataSync()[0] as number, gradient: Array.from(grads[logprobVariable.name]!.dataSync()), clipFraction: metrics.clipFraction.dataSync()[0] as number, kl: metrics.kl.dataSync()[0] as number, importance: metrics.importanceWeight.dataSync()[0] as number };
}

let logprobVariable: tf.Variable;
const setLogprobs = (values: number[]) => {
  logprobVariable?.dispose();
  logprobVariable = tf.variable(tf.tensor1d(values), true, `logprobs${Math.random()}`);
};

describe("policyLoss", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("REINFORCE: −Σ w·A·logπ, gradient −w·A", () => {
    setLogprobs([-1, -2]);
    const result = evaluate({ logprobs: [], oldLogprobs: [-1, -2], engineLogprobs: [-1, -2], advantages: [2, -1], weights: [0.5, 0.5] }, { objective: "reinforce" });
    expect(result.loss).toBeCloseTo(-(0.5 * 2 * -1 + 0.5 * -1 * -2), 6);
    expect(result.gradient[0]).toBeCloseTo(-1, 6);
    expect(result.gradient[1]).toBeCloseTo(0.5, 6);
  });

  it("clips the ratio: past 1+ε with a positive advantage (or below 1−ε with a negative one) the gradient stops", () => {
    // Token 0: ratio e^0.5 ≈ 1.65 > 1.2, A = 1 → clipped. Token 1: ratio e^0.1 ≈ 1.105, A = 1 → not clipped.
    // Token 2: ratio e^−0.5 ≈ 0.61 < 0.8, A = −1 → clipped. Token 3: same ratio, A = +1 → not clipped (min keeps it).
    setLogprobs([-0.5, -0.9, -1.5, -1.5]);
    const result = evaluate({ logprobs: [], oldLogprobs: [-1, -1, -1, -1], engineLogprobs: [-1, -1, -1, -1], advantages: [1, 1, -1, 1], weights: [0.25, 0.25, 0.25, 0.25] });
    expect(result.gradient[0]).toBeCloseTo(0, 7);
    expect(result.gradient[1]).toBeCloseTo(-0.25 * Math.exp(0.1), 6);
    expect(result.gradient[2]).toBeCloseTo(0, 7);
    expect(result.gradient[3]).toBeCloseTo(-0.25 * Math.exp(-0.5), 6);
    expect(result.clipFraction).toBeCloseTo(0.5, 6);
    const expectedLoss = -0.25 * (1.2 * 1 + Math.exp(0.1) * 1 + 0.8 * -1 + Math.exp(-0.5) * 1);
    expect(result.loss).toBeCloseTo(expectedLoss, 6);
  });

  it("weights the surrogate by the truncated importance ratio min(π_old/π_engine, C)", () => {
    setLogprobs([-1, -1]);
    // Token 0: π_old/π_engine = e^0.2; token 1: e^3 ≈ 20 → capped at 2.
    const result = evaluate({ logprobs: [], oldLogprobs: [-1, -1], engineLogprobs: [-1.2, -4], advantages: [1, 1], weights: [0.5, 0.5] }, { importanceCap: 2 });
    expect(result.gradient[0]).toBeCloseTo(-0.5 * Math.exp(0.2), 5);
    expect(result.gradient[1]).toBeCloseTo(-0.5 * 2, 5);
    expect(result.importance).toBeCloseTo((Math.exp(0.2) + 2) / 2, 5);
  });

  it("adds β·k3 to the reference policy: zero when equal, positive otherwise", () => {
    setLogprobs([-1, -2]);
    const same = evaluate({ logprobs: [], oldLogprobs: [-1, -2], engineLogprobs: [-1, -2], advantages: [0, 0], weights: [0.5, 0.5], referenceLogprobs: [-1, -2] }, { klCoefficient: 0.1 });
    expect(same.kl).toBeCloseTo(0, 7);
    const apart = evaluate({ logprobs: [], oldLogprobs: [-1, -2], engineLogprobs: [-1, -2], advantages: [0, 0], weights: [0.5, 0.5], referenceLogprobs: [-1.5, -1] }, { klCoefficient: 0.1 });
    const k3 = (difference: number) => Math.exp(difference) - difference - 1;
    expect(apart.kl).toBeCloseTo(0.5 * k3(-0.5) + 0.5 * k3(1), 6);
    expect(apart.loss).toBeCloseTo(0.1 * apart.kl, 6);
  });
});
