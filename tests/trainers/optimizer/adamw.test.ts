import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { AdamW, AdamWConfigurationSchema } from "../../../trainers/optimizer/adamw.js";
import { clipGradientNorm } from "../../../trainers/optimizer/clip-gradient-norm.js";

describe("AdamW", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("takes the first step of size lr·(sign(g) + λ·w), as bias correction makes it", () => {
    const weight = tf.variable(tf.tensor1d([1, -2]), true, "adamw-w");
    const optimizer = new AdamW(AdamWConfigurationSchema.parse({ learningRate: 0.1, weightDecay: 0.5 }));
    optimizer.applyGradients({ w: weight }, { w: tf.tensor1d([3, -0.001]) });
    const [first, second] = Array.from(weight.dataSync());
    expect(first).toBeCloseTo(1 - 0.1 * (1 + 0.5 * 1), 5);
    expect(second).toBeCloseTo(-2 - 0.1 * (-1 + 0.5 * -2), 4);
    expect(optimizer.steps).toBe(1);
    optimizer.dispose();
  });

  it("minimises a quadratic", () => {
    const weight = tf.variable(tf.tensor1d([3, -4]), true, "adamw-q");
    const optimizer = new AdamW(AdamWConfigurationSchema.parse({ learningRate: 0.1, weightDecay: 0 }));
    for (let step = 0; step < 300; step++) {
      const { grads } = tf.variableGrads(() => tf.sum(tf.square(weight)) as tf.Scalar, [weight]);
      optimizer.applyGradients({ [weight.name]: weight }, grads);
    }
    for (const value of weight.dataSync()) expect(Math.abs(value)).toBeLessThan(0.05);
  });
});

describe("clipGradientNorm", () => {
  it("scales gradients to the maximum global norm and reports the norm before clipping", () => {
    const { gradients, norm } = clipGradientNorm({ a: tf.tensor1d([3, 0]), b: tf.tensor1d([4]) }, 1);
    expect(norm).toBeCloseTo(5, 6);
    expect(Array.from(gradients.a!.dataSync())).toEqual([expect.closeTo(0.6, 5), 0]);
    expect(Array.from(gradients.b!.dataSync())).toEqual([expect.closeTo(0.8, 5)]);
  });

  it("leaves small gradients alone", () => {
    const original = { a: tf.tensor1d([0.1]) };
    expect(clipGradientNorm(original, 1).gradients).toBe(original);
  });
});
