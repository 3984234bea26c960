import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { AdamW } from "../../../../src/training/tfjs/optimizer/adamw.js";
import { AdamWConfigurationSchema } from "../../../../src/training/update/adamw-configuration.js";
import { clipGradientNorm } from "../../../../src/training/tfjs/optimizer/clip-gradient-norm.js";

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

describe("AdamW snapshot and restore", () => {
  /** Ten steps on a quadratic with `switchAt` steps on one optimizer, the rest on a fresh one restored from its snapshot. */
  async function train(name: string, switchAt: number): Promise<Float32Array> {
    const weight = tf.variable(tf.tensor2d([[3, -4], [0.5, 2]]), true, name);
    const configuration = AdamWConfigurationSchema.parse({ learningRate: 0.05, weightDecay: 0.1 });
    let optimizer = new AdamW(configuration);
    for (let step = 0; step < 10; step++) {
      if (step === switchAt) {
        const snapshot = await optimizer.snapshot();
        optimizer.dispose();
        optimizer = new AdamW(configuration);
        optimizer.restore(snapshot);
      }
      const { grads } = tf.variableGrads(() => tf.sum(tf.mul(tf.square(weight), tf.tensor2d([[1, 2], [3, 4]]))) as tf.Scalar, [weight]);
      optimizer.applyGradients({ [weight.name]: weight }, grads);
    }
    optimizer.dispose();
    const values = Float32Array.from(weight.dataSync());
    weight.dispose();
    return values;
  }

  it("continues exactly where the snapshot was taken: step count and both moments", async () => {
    const uninterrupted = await train("adamw-snapshot-a", -1);
    const resumed = await train("adamw-snapshot-b", 4);
    expect(Array.from(resumed)).toEqual(Array.from(uninterrupted));
  });

  it("snapshots copies: later steps do not change a snapshot", async () => {
    const weight = tf.variable(tf.tensor1d([1, 2]), true, "adamw-snapshot-copy");
    const optimizer = new AdamW(AdamWConfigurationSchema.parse({}));
    optimizer.applyGradients({ w: weight }, { w: tf.tensor1d([1, 1]) });
    const snapshot = await optimizer.snapshot();
    const first = Array.from(snapshot.moments.get("w")!.first);
    optimizer.applyGradients({ w: weight }, { w: tf.tensor1d([5, 5]) });
    expect(snapshot.steps).toBe(1);
    expect(Array.from(snapshot.moments.get("w")!.first)).toEqual(first);
    expect(snapshot.moments.get("w")!.shape).toEqual([2]);
    optimizer.dispose();
  });

  it("refuses moments that do not fit their shape", () => {
    const optimizer = new AdamW(AdamWConfigurationSchema.parse({}));
    const moments = new Map([["w", { shape: [3], first: new Float32Array(2), second: new Float32Array(3) }]]);
    expect(() => optimizer.restore({ steps: 1, moments })).toThrow(/snapshot\.moments\["w"\]/);
    expect(() => optimizer.restore({ steps: -1, moments: new Map() })).toThrow(/snapshot\.steps/);
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
