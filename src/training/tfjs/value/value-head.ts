import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../../core/errors/index.js";
import { matMul } from "../policy/mat-mul.js";

export interface ValueHeadOptions {
  /** Width of the policy's hidden state (`policy.configuration.embeddingLength`). */
  embeddingLength: number;
  /** Starting weights, e.g. from a checkpoint: `weight` has `embeddingLength` values. Default zero, so every first value is 0. */
  initial?: { weight: Float32Array; bias: number };
}

let createdHeads = 0;

/**
 * Classic PPO's critic: V(s) = h·w + b on the policy's final hidden state h
 * (after `output_norm`) at the position that predicts a token. The trainer
 * holds it; it is never written into a GGUF, since the engine samples without
 * it. Zero at the start, so the first advantages are the plain discounted
 * rewards and no random value misleads the first updates.
 */
export class ValueHead {
  private constructor(
    /** `[embedding, 1]`. */
    readonly weight: tf.Variable,
    /** `[1]`. */
    readonly bias: tf.Variable,
  ) {}

  static create(options: ValueHeadOptions): ValueHead {
    const { embeddingLength, initial } = options;
    if (!Number.isInteger(embeddingLength) || embeddingLength < 1) throw new InvalidInputError("embeddingLength", "a positive integer", embeddingLength);
    if (initial !== undefined && initial.weight.length !== embeddingLength) {
      throw new InvalidInputError("initial.weight.length", `${embeddingLength}, one per hidden unit`, initial.weight.length);
    }
    // tfjs variable names are global: each head gets its own prefix.
    const prefix = `value-head-${createdHeads++}/`;
    const weight = tf.tidy(() =>
      tf.variable(initial ? tf.tensor2d(initial.weight, [embeddingLength, 1]) : tf.zeros([embeddingLength, 1]), true, `${prefix}weight`),
    );
    const bias = tf.tidy(() => tf.variable(tf.tensor1d([initial?.bias ?? 0]), true, `${prefix}bias`));
    return new ValueHead(weight, bias);
  }

  /** The head's trainable variables, to take gradients for alongside the policy's. */
  get variables(): tf.Variable[] {
    return [this.weight, this.bias];
  }

  /** One value per row of `hiddenStates` (`[rows, embedding]`), differentiable with respect to both. */
  values(hiddenStates: tf.Tensor2D): tf.Tensor1D {
    return tf.reshape(tf.add(matMul(hiddenStates, this.weight as tf.Tensor2D), this.bias), [hiddenStates.shape[0]]);
  }

  /** The current weights, for a checkpoint (`initial` restores them). */
  async snapshot(): Promise<{ weight: Float32Array; bias: number }> {
    return { weight: (await this.weight.data()) as Float32Array, bias: ((await this.bias.data()) as Float32Array)[0] as number };
  }

  dispose(): void {
    this.weight.dispose();
    this.bias.dispose();
  }
}
