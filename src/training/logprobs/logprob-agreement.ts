import { mismatchKl } from "./mismatch-kl.js";

/** How closely two sets of logprobs of the same tokens agree. */
export interface LogprobAgreement {
  tokens: number;
  /** Largest |engine − trainer| over the tokens; 0 when there are none. */
  maxAbsDiff: number;
  /** 99th percentile of |engine − trainer| (nearest rank); 0 when there are none. */
  p99AbsDiff: number;
  meanAbsDiff: number;
  /** Mean k3 estimate of KL(engine ‖ trainer); see `mismatchKl`. */
  mismatchKl: number;
}

export function logprobAgreement(engineLogprobs: ArrayLike<number>, trainerLogprobs: ArrayLike<number>): LogprobAgreement {
  let maxAbsDiff = 0;
  let sum = 0;
  const differences = new Float64Array(engineLogprobs.length);
  for (let index = 0; index < engineLogprobs.length; index++) {
    const difference = Math.abs((engineLogprobs[index] as number) - (trainerLogprobs[index] as number));
    differences[index] = difference;
    maxAbsDiff = Math.max(maxAbsDiff, difference);
    sum += difference;
  }
  const tokens = engineLogprobs.length;
  differences.sort();
  const p99AbsDiff = tokens === 0 ? 0 : (differences[Math.ceil(0.99 * tokens) - 1] as number);
  return { tokens, maxAbsDiff, p99AbsDiff, meanAbsDiff: tokens === 0 ? 0 : sum / tokens, mismatchKl: mismatchKl(engineLogprobs, trainerLogprobs) };
}
