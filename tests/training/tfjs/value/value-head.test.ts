import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../../src/core/errors/index.js";
import { ValueHead } from "../../../../src/training/tfjs/value/value-head.js";

describe("ValueHead", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("starts at zero, computes h·w + b per row, and restores from its snapshot", async () => {
    const hidden = tf.tensor2d([[1, 2, 3], [-1, 0, 0.5]]);
    const fresh = ValueHead.create({ embeddingLength: 3 });
    expect(Array.from(fresh.values(hidden).dataSync())).toEqual([0, 0]);
    const restored = ValueHead.create({ embeddingLength: 3, initial: { weight: Float32Array.of(0.5, -1, 2), bias: 0.25 } });
    expect(Array.from(restored.values(hidden).dataSync())).toEqual([0.5 - 2 + 6 + 0.25, -0.5 + 0 + 1 + 0.25]);
    const snapshot = await restored.snapshot();
    expect({ weight: Array.from(snapshot.weight), bias: snapshot.bias }).toEqual({ weight: [0.5, -1, 2], bias: 0.25 });
    expect(restored.variables.every((variable) => variable.trainable)).toBe(true);
    expect(new Set([...fresh.variables, ...restored.variables].map((variable) => variable.name)).size).toBe(4);
    fresh.dispose();
    restored.dispose();
  });

  it("refuses initial weights of another width", () => {
    expect(() => ValueHead.create({ embeddingLength: 4, initial: { weight: new Float32Array(3), bias: 0 } })).toThrow(InvalidInputError);
  });
});
