import { z } from "zod";
import type { DialecticSettings } from "./dialectic-settings.js";
import { textSimilarity } from "./text-similarity.js";

/**
 * The specification's three ways of going in circles:
 * - `flip-flop`: the proposer returns to a proposal already made in the window
 *   (A, B, A), reworded or not;
 * - `incremental-reversal`: fixing one issue breaks another, so an issue that
 *   went away comes back (X broken, Y missing, X broken);
 * - `perfection-loop`: scores go back and forth within a small band
 *   (0.82, 0.84, 0.83) while the feedback keeps changing.
 */
export const OscillationPatternSchema = z.enum(["flip-flop", "incremental-reversal", "perfection-loop"]);
export type OscillationPattern = z.infer<typeof OscillationPatternSchema>;

/** What detection reads of a round. */
export interface OscillationRound {
  proposal: string;
  critique: { score: number; issues: readonly string[] };
}

export type OscillationSettings = Pick<
  DialecticSettings,
  "oscillationWindow" | "similarityThreshold" | "issueSimilarityThreshold" | "perfectionBand"
>;

/** Absorbs floating-point noise in score differences (0.87 − 0.82 is 0.0499…). */
export const SCORE_EPSILON = 1e-9;

/**
 * The pattern the latest round completes within the window; null when there
 * is none or fewer rounds than the window. The most specific signal wins:
 * a repeated proposal, then scores circling in a band (the specification's
 * perfection loop alternates its feedback too), then issues coming back.
 * Only patterns the latest round takes part in count, so one repetition is
 * not reported again in later rounds.
 */
export function detectOscillation(rounds: readonly OscillationRound[], settings: OscillationSettings): OscillationPattern | null {
  if (rounds.length < settings.oscillationWindow) return null;
  const window = rounds.slice(-settings.oscillationWindow);
  if (isFlipFlop(window, settings.similarityThreshold)) return "flip-flop";
  if (isPerfectionLoop(window.map((round) => round.critique.score), settings.perfectionBand)) return "perfection-loop";
  if (isIncrementalReversal(window, settings.issueSimilarityThreshold)) return "incremental-reversal";
  return null;
}

function isFlipFlop(window: readonly OscillationRound[], threshold: number): boolean {
  const latest = window[window.length - 1] as OscillationRound;
  return window.slice(0, -1).some((round) => textSimilarity(round.proposal, latest.proposal) >= threshold);
}

/** An issue of the latest round was raised at least two rounds earlier and missing from a round in between. */
function isIncrementalReversal(window: readonly OscillationRound[], threshold: number): boolean {
  const last = window.length - 1;
  const raises = (round: OscillationRound, issue: string) =>
    round.critique.issues.some((other) => textSimilarity(other, issue) >= threshold);
  return (window[last] as OscillationRound).critique.issues.some((issue) =>
    window.slice(0, last - 1).some((earlier, index) => raises(earlier, issue) && window.slice(index + 1, last).some((between) => !raises(between, issue))),
  );
}

/** Scores within `band` that change direction at least once: polishing in circles, not a plateau or a slow climb. */
function isPerfectionLoop(scores: readonly number[], band: number): boolean {
  if (Math.max(...scores) - Math.min(...scores) > band + SCORE_EPSILON) return false;
  const steps = scores.slice(1).map((score, index) => score - (scores[index] as number));
  const directions = steps.filter((step) => Math.abs(step) > SCORE_EPSILON).map(Math.sign);
  return directions.some((direction, index) => index > 0 && direction !== directions[index - 1]);
}
