import { InvalidInputError } from "../core/errors/index.js";
import type { Critic, CriticOptions } from "./critic.js";
import { StandardCritic } from "./standard-critic.js";

/** What the critics of a panel look at hardest, in the order they are added. */
export const CRITIC_FOCUSES = ["correctness", "completeness", "style", "efficiency", "robustness"] as const;

/**
 * `count` StandardCritics: one general critic alone, or one per focus
 * (correctness, completeness, …) for an ensemble, so their verdicts differ.
 */
export function criticPanel(count: number, options: Omit<CriticOptions, "id" | "focus"> = {}): Critic[] {
  if (!Number.isInteger(count) || count < 1 || count > CRITIC_FOCUSES.length) {
    throw new InvalidInputError("critics", `an integer from 1 to ${CRITIC_FOCUSES.length}`, count);
  }
  if (count === 1) return [new StandardCritic(options)];
  return CRITIC_FOCUSES.slice(0, count).map((focus) => new StandardCritic({ ...options, focus }));
}
