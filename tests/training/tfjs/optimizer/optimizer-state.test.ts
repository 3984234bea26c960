import * as tf from "@tensorflow/tfjs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../../src/core/errors.js";
import { readOptimizerState } from "../../../../src/training/tfjs/optimizer/read-optimizer-state.js";
import { writeOptimizerState } from "../../../../src/training/tfjs/optimizer/write-optimizer-state.js";
import { AdamW } from "../../../../src/training/tfjs/optimizer/adamw.js";
import { AdamWConfigurationSchema } from "../../../../src/training/update/adamw-configuration.js";

describe("writeOptimizerState and readOptimizerState", () => {
  let directory: string;
  beforeAll(async () => {
    await tf.setBackend("cpu");
    directory = await mkdtemp(join(tmpdir(), "selfplay-optimizer-state-"));
  });

  /** Variables named as two processes would name them: the tfjs names differ, the stable names do not. */
  function variables(prefix: string): Map<string, tf.Variable> {
    return new Map<string, tf.Variable>([
      ["blk.0.attn_q.weight", tf.variable(tf.tensor2d([[1, 2, 3], [4, 5, 6]]), true, `${prefix}/blk.0.attn_q.weight`)],
      ["output_norm.weight", tf.variable(tf.tensor1d([1, -1]), true, `${prefix}/output_norm.weight`)],
      ["token_embd.weight", tf.variable(tf.tensor2d([[0.5]]), false, `${prefix}/token_embd.weight`)],
    ]);
  }

  async function trainedOptimizer(trained: Map<string, tf.Variable>): Promise<AdamW> {
    const optimizer = new AdamW(AdamWConfigurationSchema.parse({ learningRate: 0.01 }));
    for (let step = 0; step < 3; step++) {
      const trainable = [...trained.values()].filter((variable) => variable.trainable);
      const { grads } = tf.variableGrads(() => tf.addN(trainable.map((variable) => tf.sum(tf.mul(variable, variable)))) as tf.Scalar, trainable);
      optimizer.applyGradients(Object.fromEntries(trainable.map((variable) => [variable.name, variable])), grads);
    }
    return optimizer;
  }

  it("round-trips the step count and both moments across the tfjs names of another process", async () => {
    const first = variables("first");
    const path = join(directory, "state.gguf");
    const snapshot = await (await trainedOptimizer(first)).snapshot();
    await writeOptimizerState(path, snapshot, first);

    const loaded = await readOptimizerState(path, variables("second"));
    expect(loaded.steps).toBe(3);
    expect([...loaded.moments.keys()].sort()).toEqual(["second/blk.0.attn_q.weight", "second/output_norm.weight"]);
    const before = snapshot.moments.get("first/blk.0.attn_q.weight")!;
    const after = loaded.moments.get("second/blk.0.attn_q.weight")!;
    expect(after.shape).toEqual([2, 3]);
    expect(Array.from(after.first)).toEqual(Array.from(before.first));
    expect(Array.from(after.second)).toEqual(Array.from(before.second));
  });

  it("refuses a file made for another model", async () => {
    const path = join(directory, "other.gguf");
    const third = variables("third");
    await writeOptimizerState(path, await (await trainedOptimizer(third)).snapshot(), third);
    const resized = variables("fourth");
    resized.set("output_norm.weight", tf.variable(tf.tensor1d([1, 2, 3]), true, "fourth/resized"));
    await expect(readOptimizerState(path, resized)).rejects.toThrow(/3 values, as the variable "output_norm.weight" has/);
    const fewer = variables("fifth");
    fewer.delete("output_norm.weight");
    await expect(readOptimizerState(path, fewer)).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("needs a stable name for every variable with moments", async () => {
    const optimizer = await trainedOptimizer(variables("sixth"));
    await expect(writeOptimizerState(join(directory, "unnamed.gguf"), await optimizer.snapshot(), new Map())).rejects.toThrow(/not among the variables to save/);
  });
});
