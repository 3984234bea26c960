import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../../core/errors.js";
import type { AdamWConfiguration } from "../../update/adamw-configuration.js";

interface Moments {
  first: tf.Variable;
  second: tf.Variable;
}

/** One variable's moments, row-major in the variable's shape. */
export interface AdamWMomentsSnapshot {
  shape: number[];
  first: Float32Array;
  second: Float32Array;
}

/** Everything AdamW carries from one step to the next; the configuration is not part of it. */
export interface AdamWSnapshot {
  /** Steps taken: the bias corrections of the next step depend on it. */
  steps: number;
  /** Moments by the name `applyGradients` keys the variable with. */
  moments: Map<string, AdamWMomentsSnapshot>;
}

/**
 * AdamW over named tf.Variables. tfjs's Adam has no decoupled weight decay,
 * so this one is written out: m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g²,
 * w ← w − lr·(m̂ / (√v̂ + ε) + λ·w).
 */
export class AdamW {
  private readonly moments = new Map<string, Moments>();
  private step = 0;

  constructor(readonly configuration: AdamWConfiguration) {}

  /** Steps taken so far. */
  get steps(): number {
    return this.step;
  }

  applyGradients(variables: Readonly<Record<string, tf.Variable>>, gradients: tf.NamedTensorMap): void {
    this.step++;
    const { learningRate, beta1, beta2, epsilon, weightDecay } = this.configuration;
    const firstCorrection = 1 - beta1 ** this.step;
    const secondCorrection = 1 - beta2 ** this.step;
    for (const [name, gradient] of Object.entries(gradients)) {
      const variable = variables[name];
      if (!variable) throw new Error(`AdamW: gradient for unknown variable "${name}"`);
      let moments = this.moments.get(name);
      if (!moments) {
        moments = { first: tf.variable(tf.zerosLike(variable), false), second: tf.variable(tf.zerosLike(variable), false) };
        this.moments.set(name, moments);
      }
      const { first, second } = moments;
      tf.tidy(() => {
        first.assign(tf.add(tf.mul(first, beta1), tf.mul(gradient, 1 - beta1)));
        second.assign(tf.add(tf.mul(second, beta2), tf.mul(tf.square(gradient), 1 - beta2)));
        const update = tf.div(tf.div(first, firstCorrection), tf.add(tf.sqrt(tf.div(second, secondCorrection)), epsilon));
        variable.assign(tf.sub(variable, tf.mul(tf.add(update, tf.mul(variable, weightDecay)), learningRate)));
      });
    }
  }

  /** A copy of the state, so that `restore` on a fresh AdamW continues exactly where this one is. */
  async snapshot(): Promise<AdamWSnapshot> {
    const moments = new Map<string, AdamWMomentsSnapshot>();
    for (const [name, { first, second }] of this.moments) {
      moments.set(name, { shape: [...first.shape], first: Float32Array.from(await first.data()), second: Float32Array.from(await second.data()) });
    }
    return { steps: this.step, moments };
  }

  /** Replaces the state with a snapshot's (this optimizer's own or one read from a checkpoint). */
  restore(snapshot: AdamWSnapshot): void {
    if (!Number.isInteger(snapshot.steps) || snapshot.steps < 0) throw new InvalidInputError("snapshot.steps", "an integer ≥ 0", snapshot.steps);
    for (const [name, { shape, first, second }] of snapshot.moments) {
      const size = shape.reduce((product, dimension) => product * dimension, 1);
      if (first.length !== size || second.length !== size) {
        throw new InvalidInputError(`snapshot.moments["${name}"]`, `${size} values per moment (shape [${shape.join(", ")}])`, [first.length, second.length]);
      }
    }
    this.dispose();
    for (const [name, { shape, first, second }] of snapshot.moments) {
      // tidy frees the staging tensors; the variables outlive it.
      const moment = (values: Float32Array) => tf.tidy(() => tf.variable(tf.tensor(values, shape), false));
      this.moments.set(name, { first: moment(first), second: moment(second) });
    }
    this.step = snapshot.steps;
  }

  dispose(): void {
    for (const { first, second } of this.moments.values()) {
      first.dispose();
      second.dispose();
    }
    this.moments.clear();
  }
}
