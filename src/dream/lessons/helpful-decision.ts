import type { SolveOutcome } from "./solve-outcome.js";

/** Why verify-helpful kept or dropped a lesson. */
export type HelpfulReason =
  /** Kept: the original failed and the re-run passed. */
  | "failure-became-pass"
  /** Kept: the original needed two or more attempts and the re-run passed on the first. */
  | "first-try-pass"
  /** Dropped: the original passed first try, so no re-run can be strictly better (none is made). */
  | "no-room-to-improve"
  /** Dropped: the re-run did no better (a tie included). */
  | "not-better";

export interface HelpfulDecision {
  keep: boolean;
  reason: HelpfulReason;
}

/** Whether a re-run could beat `original` at all: only a failure or a struggled win leaves room. */
export function leavesRoomToImprove(original: SolveOutcome): boolean {
  return !original.passed || original.attemptsUsed >= 2;
}

/**
 * The seed's rule, strictly better or nothing: a failure must become a pass,
 * a struggled win must become a first-try win. Anything else (same attempts,
 * fewer attempts but still more than one, still failing) drops the lesson,
 * since a lesson that changes nothing still costs prompt space in every cycle.
 */
export function decideHelpful(original: SolveOutcome, verify: SolveOutcome): HelpfulDecision {
  if (!leavesRoomToImprove(original)) return { keep: false, reason: "no-room-to-improve" };
  if (!original.passed) return verify.passed ? { keep: true, reason: "failure-became-pass" } : { keep: false, reason: "not-better" };
  return verify.passed && verify.attemptsUsed === 1 ? { keep: true, reason: "first-try-pass" } : { keep: false, reason: "not-better" };
}
