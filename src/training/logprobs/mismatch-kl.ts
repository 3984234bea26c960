import { InvalidInputError } from "../../core/errors/index.js";

/**
 * Mean over tokens of the k3 estimator of KL(engine ‖ trainer) from tokens the
 * engine sampled: with δ = log p_trainer − log p_engine, k3 = e^δ − 1 − δ.
 * Unbiased, never negative, and of lower variance than k1 = −δ (Schulman,
 * "Approximating KL divergence"); computed with expm1 so differences of 1e-7
 * do not cancel away. Training steps log it to show how far the engine that
 * sampled drifts from the policy that learns.
 */
export function mismatchKl(engineLogprobs: ArrayLike<number>, trainerLogprobs: ArrayLike<number>): number {
  if (engineLogprobs.length !== trainerLogprobs.length) {
    throw new InvalidInputError("trainerLogprobs.length", `${engineLogprobs.length}, one per engine logprob`, trainerLogprobs.length);
  }
  if (engineLogprobs.length === 0) return 0;
  let sum = 0;
  for (let index = 0; index < engineLogprobs.length; index++) {
    const difference = (trainerLogprobs[index] as number) - (engineLogprobs[index] as number);
    sum += Math.expm1(difference) - difference;
  }
  return sum / engineLogprobs.length;
}
