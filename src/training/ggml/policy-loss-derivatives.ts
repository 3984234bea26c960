import { InvalidInputError } from "../../core/errors.js";
import type { PolicyLossConfiguration } from "../update/policy-loss-configuration.js";

/** Per trained token, flat and aligned, as `policyLoss` takes them, but as plain arrays of values. */
export interface PolicyLossTokens {
  /** log π_θ of each token at the current weights. */
  logprobs: ArrayLike<number>;
  oldLogprobs: ArrayLike<number>;
  engineLogprobs: ArrayLike<number>;
  advantages: ArrayLike<number>;
  /** From `aggregationWeights`. */
  weights: ArrayLike<number>;
  /** Needed when klCoefficient > 0. */
  referenceLogprobs?: ArrayLike<number>;
  /** Entropy at each token; its aggregate is logged, and rewarded when entropyCoefficient > 0. */
  entropy?: ArrayLike<number>;
}

/** The loss's value and parts over the tokens given, and its derivatives with respect to each token's logprob and entropy. */
export interface PolicyLossDerivatives {
  loss: number;
  kl: number;
  entropy: number;
  clipFraction: number;
  /** Sum (not mean) of the truncated importance weights: chunks add up, the caller divides. */
  importanceWeightSum: number;
  /** ∂loss/∂logprob per token. */
  logprobs: Float32Array;
  /** ∂loss/∂entropy per token; present when entropies were given. */
  entropyGradients: Float32Array | undefined;
}

/**
 * `policyLoss` (src/training/tfjs/losses/policy-loss.ts) written per token, with its
 * derivatives: the loss is a sum of per-token terms, each a function of that
 * token's logprob (and entropy) only, so the graph backpropagates
 * Σ ∂L/∂logprob·logprob + ∂L/∂H·H and gets exactly the loss's gradient. The
 * derivatives follow tfjs's conventions where the loss has kinks, so both
 * trainers stop the same gradients: minimum(a, b) passes to a when a ≤ b, and
 * clipByValue passes inside its closed interval. Tokens can come in chunks:
 * every term is a weighted sum, so the parts of the chunks add up.
 */
export function policyLossDerivatives(tokens: PolicyLossTokens, configuration: PolicyLossConfiguration): PolicyLossDerivatives {
  const count = tokens.logprobs.length;
  if (configuration.klCoefficient > 0 && tokens.referenceLogprobs === undefined) {
    throw new InvalidInputError("referenceLogprobs", "the reference policy's logprobs when klCoefficient > 0");
  }
  const logprobGradients = new Float32Array(count);
  const entropyGradients = tokens.entropy === undefined ? undefined : new Float32Array(count);
  let surrogateSum = 0;
  let kl = 0;
  let entropy = 0;
  let clipFraction = 0;
  let importanceWeightSum = 0;
  const low = 1 - configuration.clipLow;
  const high = 1 + configuration.clipHigh;
  for (let index = 0; index < count; index++) {
    const logprob = tokens.logprobs[index] as number;
    const advantage = tokens.advantages[index] as number;
    const weight = tokens.weights[index] as number;
    const importance = Math.min(Math.exp((tokens.oldLogprobs[index] as number) - (tokens.engineLogprobs[index] as number)), configuration.importanceCap);
    importanceWeightSum += importance;
    let surrogate: number;
    let surrogateDerivative: number;
    if (configuration.objective === "reinforce") {
      surrogate = advantage * logprob;
      surrogateDerivative = advantage;
    } else {
      const ratio = Math.exp(logprob - (tokens.oldLogprobs[index] as number));
      const unclipped = ratio * advantage;
      const clipped = Math.min(Math.max(ratio, low), high) * advantage;
      surrogate = Math.min(unclipped, clipped);
      if (unclipped <= clipped) surrogateDerivative = advantage * ratio;
      else surrogateDerivative = ratio >= low && ratio <= high ? advantage * ratio : 0;
      if (clipped < unclipped) clipFraction += weight;
    }
    surrogateSum += surrogate * importance * weight;
    let derivative = -importance * weight * surrogateDerivative;
    if (configuration.klCoefficient > 0) {
      // k3 = e^d − d − 1 with d = ref − θ: ∂k3/∂θ = 1 − e^d.
      const difference = (tokens.referenceLogprobs?.[index] as number) - logprob;
      kl += (Math.exp(difference) - difference - 1) * weight;
      derivative += configuration.klCoefficient * weight * (1 - Math.exp(difference));
    }
    logprobGradients[index] = derivative;
    if (tokens.entropy !== undefined && entropyGradients !== undefined) {
      entropy += (tokens.entropy[index] as number) * weight;
      entropyGradients[index] = configuration.entropyCoefficient > 0 ? -configuration.entropyCoefficient * weight : 0;
    }
  }
  let loss = -surrogateSum;
  if (configuration.klCoefficient > 0) loss += configuration.klCoefficient * kl;
  if (tokens.entropy !== undefined && configuration.entropyCoefficient > 0) loss -= configuration.entropyCoefficient * entropy;
  return { loss, kl, entropy, clipFraction, importanceWeightSum, logprobs: logprobGradients, entropyGradients };
}
