import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../core/errors/index.js";
import type { PrmNetworkShape } from "../../frontier/prm/prm-metadata.js";
import { checkPrmWeights, prmWeightShapes, type PrmWeights } from "./prm-weights.js";

/**
 * The PRM in tfjs: features → dense(hidden) → ReLU or tanh → dense(1) →
 * sigmoid. Its variables are what AdamW updates; `weights()` is what the ONNX
 * export writes.
 */
export class PrmNetwork {
  readonly variables: Readonly<Record<keyof PrmWeights, tf.Variable>>;

  constructor(
    readonly shape: PrmNetworkShape,
    weights: PrmWeights,
  ) {
    checkPrmWeights(weights, shape);
    const shapes = prmWeightShapes(shape);
    // Unnamed: tfjs variable names are process-wide, and two networks (a PRM and its fine-tuned copy) may coexist.
    const variable = (name: keyof PrmWeights) => tf.variable(tf.tensor(weights[name], shapes[name], "float32"), true);
    this.variables = {
      firstWeights: variable("firstWeights"),
      firstBias: variable("firstBias"),
      secondWeights: variable("secondWeights"),
      secondBias: variable("secondBias"),
    };
  }

  /** Pre-sigmoid scores `[rows]` of features `[rows, inputDimensions]`; differentiable in the variables. */
  logits(features: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => {
      const { firstWeights, firstBias, secondWeights, secondBias } = this.variables;
      const linear = tf.add(tf.matMul(features, firstWeights), firstBias);
      const hidden = this.shape.activation === "relu" ? tf.relu(linear) : tf.tanh(linear);
      return tf.reshape(tf.add(tf.matMul(hidden, secondWeights), secondBias), [-1]);
    });
  }

  /** Probabilities of rows of features, each `inputDimensions` wide. */
  probabilities(features: readonly Float32Array[]): number[] {
    if (features.length === 0) return [];
    return tf.tidy(() => Array.from(tf.sigmoid(this.logits(stackRows(features, this.shape.inputDimensions))).dataSync()));
  }

  /** A copy of the current parameters. */
  weights(): PrmWeights {
    const copy = (name: keyof PrmWeights) => new Float32Array(this.variables[name].dataSync());
    return { firstWeights: copy("firstWeights"), firstBias: copy("firstBias"), secondWeights: copy("secondWeights"), secondBias: copy("secondBias") };
  }

  dispose(): void {
    for (const variable of Object.values(this.variables)) variable.dispose();
  }
}

/** Rows as one `[rows, width]` tensor. */
export function stackRows(rows: readonly Float32Array[], width: number): tf.Tensor2D {
  const data = new Float32Array(rows.length * width);
  rows.forEach((row, index) => {
    if (row.length !== width) throw new InvalidInputError(`features.${index}`, `a vector of ${width} numbers`, row.length);
    data.set(row, index * width);
  });
  return tf.tensor2d(data, [rows.length, width]);
}
