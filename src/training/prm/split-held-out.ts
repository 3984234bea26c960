import { fnv1aText } from "../../core/hashing/fnv1a.js";
import type { PrmExample } from "../../frontier/prm/prm-state.js";

/** Salt of the split's hash, so it is independent of any task's own held-out split (the arithmetic task's would be empty here). */
const SPLIT_SALT = "selfplay-prm-held-out\u241f";

/**
 * Whether a task's states are held out: FNV-1a 32 of the salted task text,
 * as a fraction of 2³², below `fraction`. By task, not by state, so the
 * prefixes of one task never sit on both sides and inflate the held-out score.
 */
export function isPrmHeldOut(task: string, fraction: number): boolean {
  return fnv1aText(SPLIT_SALT + task) / 2 ** 32 < fraction;
}

/** Examples split into training and held-out, each in its original order. */
export function splitHeldOut(examples: readonly PrmExample[], fraction: number): { training: PrmExample[]; heldOut: PrmExample[] } {
  const training: PrmExample[] = [];
  const heldOut: PrmExample[] = [];
  for (const example of examples) (isPrmHeldOut(example.task, fraction) ? heldOut : training).push(example);
  return { training, heldOut };
}
