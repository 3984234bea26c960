import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../../core/errors.js";
import type { PolicyLossConfiguration } from "../../update/policy-loss-configuration.js";

/** Per trained token, flat and aligned; everything but `logprobs` is a constant. */
export interface PolicyLossInputs {
  /** log π_θ of each token: the differentiable output of the policy. */
  logprobs: tf.Tensor1D;
  /** log π_old: the trainer's own logprobs before this update (no gradient). */
  oldLogprobs: tf.Tensor1D;
  /** The engine's logprobs recorded in the Steps (the behaviour policy). */
  engineLogprobs: tf.Tensor1D;
  advantages: tf.Tensor1D;
  /** From `aggregationWeights`: sum(weights · term) is the aggregated term. */
  weights: tf.Tensor1D;
  /** log π_ref, needed when klCoefficient > 0. */
  referenceLogprobs?: tf.Tensor1D;
  /** Entropy of the policy's distribution at each token (differentiable), needed when entropyCoefficient > 0. */
  entropy?: tf.Tensor1D;
}

export interface PolicyLoss {
  loss: tf.Scalar;
  /** Aggregated k3 estimate of KL(π_θ ‖ π_ref), 0 when off. */
  kl: tf.Scalar;
  entropy: tf.Scalar;
  /** Weighted share of tokens whose ratio was clipped (the gradient stopped). */
  clipFraction: tf.Scalar;
  /** Mean truncated importance weight: far from 1 means the engine and trainer disagree. */
  importanceWeight: tf.Scalar;
}

/**
 * The policy-gradient loss to minimise. Only `logprobs` (and `entropy`) carry
 * gradients; the importance weight multiplies the surrogate as a constant.
 */
export function policyLoss(inputs: PolicyLossInputs, configuration: PolicyLossConfiguration): PolicyLoss {
  const { logprobs, oldLogprobs, engineLogprobs, advantages, weights } = inputs;
  const importance = tf.minimum(tf.exp(tf.sub(oldLogprobs, engineLogprobs)), configuration.importanceCap);
  let surrogate: tf.Tensor1D;
  let clipped: tf.Tensor1D;
  if (configuration.objective === "reinforce") {
    surrogate = tf.mul(advantages, logprobs);
    clipped = tf.zerosLike(logprobs);
  } else {
    const ratio = tf.exp(tf.sub(logprobs, oldLogprobs));
    const unclippedTerm = tf.mul(ratio, advantages);
    const clippedTerm = tf.mul(tf.clipByValue(ratio, 1 - configuration.clipLow, 1 + configuration.clipHigh), advantages);
    surrogate = tf.minimum(unclippedTerm, clippedTerm);
    clipped = tf.cast(tf.less(clippedTerm, unclippedTerm), "float32") as tf.Tensor1D;
  }
  let loss = tf.neg(tf.sum(tf.mul(tf.mul(surrogate, importance), weights))) as tf.Scalar;

  let kl = tf.scalar(0);
  if (configuration.klCoefficient > 0) {
    if (!inputs.referenceLogprobs) throw new InvalidInputError("referenceLogprobs", "the reference policy's logprobs when klCoefficient > 0");
    // k3 = exp(ref − θ) − (ref − θ) − 1: unbiased for KL(π_θ‖π_ref) on samples of π_θ, and never negative.
    const difference = tf.sub(inputs.referenceLogprobs, logprobs);
    kl = tf.sum(tf.mul(tf.sub(tf.sub(tf.exp(difference), difference), 1), weights)) as tf.Scalar;
    loss = tf.add(loss, tf.mul(kl, configuration.klCoefficient));
  }
  let entropy = tf.scalar(0);
  if (inputs.entropy) {
    entropy = tf.sum(tf.mul(inputs.entropy, weights)) as tf.Scalar;
    if (configuration.entropyCoefficient > 0) loss = tf.sub(loss, tf.mul(entropy, configuration.entropyCoefficient));
  }
  return {
    loss,
    kl,
    entropy,
    clipFraction: tf.sum(tf.mul(clipped, weights)) as tf.Scalar,
    importanceWeight: tf.mean(importance) as tf.Scalar,
  };
}
