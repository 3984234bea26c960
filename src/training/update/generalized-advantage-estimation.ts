import { InvalidInputError } from "../../core/errors/index.js";

export interface GeneralizedAdvantages {
  advantages: Float64Array;
  /** advantages + values: the value head's regression targets. */
  returns: Float64Array;
}

/**
 * GAE (Schulman et al. 2016) over one episode's trained tokens, in order:
 * δ_t = r_t + γ·V_{t+1} − V_t, A_t = δ_t + γλ·A_{t+1}, with V after the last
 * token 0 (the episode ended). `rewards` is usually 0 but at the last token of
 * the episode (or of each Step, for per-step rewards).
 */
export function generalizedAdvantageEstimation(
  rewards: ArrayLike<number>,
  values: ArrayLike<number>,
  discount: number,
  lambda: number,
): GeneralizedAdvantages {
  if (rewards.length !== values.length) {
    throw new InvalidInputError("values", `one value per reward (${rewards.length})`, `${values.length} values`);
  }
  const advantages = new Float64Array(rewards.length);
  const returns = new Float64Array(rewards.length);
  let next = 0;
  for (let index = rewards.length - 1; index >= 0; index--) {
    const nextValue = index + 1 < values.length ? (values[index + 1] as number) : 0;
    const delta = (rewards[index] as number) + discount * nextValue - (values[index] as number);
    next = delta + discount * lambda * next;
    advantages[index] = next;
    returns[index] = next + (values[index] as number);
  }
  return { advantages, returns };
}
