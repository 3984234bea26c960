import { z } from "zod";
import type { OscillationRound } from "./detect-oscillation.js";
import { textSimilarity } from "./text-similarity.js";

/** What the adaptive engine does about an oscillation, logged on the round that detected it. */
export const EscapeStrategySchema = z.enum(["raise-temperature", "inject-constraints", "return-best"]);
export type EscapeStrategy = z.infer<typeof EscapeStrategySchema>;

/**
 * The specification's order: the first oscillation of a run raises the
 * proposer's temperature, the second injects constraints, any later one gives
 * up and returns the best proposal.
 */
export function escapeStrategyFor(oscillations: number): EscapeStrategy {
  if (oscillations <= 1) return "raise-temperature";
  if (oscillations === 2) return "inject-constraints";
  return "return-best";
}

/**
 * Issues raised in more than one round of the window (near-duplicates count
 * as one issue), in order of first appearance; the latest round's issues when
 * none recurs, as the specification injects them.
 */
export function recurringIssues(window: readonly OscillationRound[], similarityThreshold: number): string[] {
  const distinct: Array<{ issue: string; rounds: number }> = [];
  for (const round of window) {
    const seenThisRound = new Set<number>();
    for (const issue of round.critique.issues) {
      let index = distinct.findIndex((entry) => textSimilarity(entry.issue, issue) >= similarityThreshold);
      if (index < 0) index = distinct.push({ issue, rounds: 0 }) - 1;
      if (!seenThisRound.has(index)) (distinct[index] as { rounds: number }).rounds++;
      seenThisRound.add(index);
    }
  }
  const recurring = distinct.filter((entry) => entry.rounds > 1).map((entry) => entry.issue);
  return recurring.length > 0 ? recurring : [...(window[window.length - 1]?.critique.issues ?? [])];
}

/** The specification's constraint injection; empty when there is nothing to constrain. */
export function constraintInjection(issues: readonly string[]): string {
  if (issues.length === 0) return "";
  return [
    "You MUST address these specific issues:",
    ...issues.map((issue, index) => `${index + 1}. ${issue}`),
    "",
    "Do NOT repeat previous approaches that had these issues.",
  ].join("\n");
}
