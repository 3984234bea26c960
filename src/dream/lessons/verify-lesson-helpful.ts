import { playbookPrompt } from "../playbook/playbook-prompt.js";
import { decideHelpful, leavesRoomToImprove, type HelpfulReason } from "./helpful-decision.js";
import type { Lesson } from "./lesson.js";
import type { SolveOutcome } from "./solve-outcome.js";

/** What the cycle runner is asked to re-run. */
export interface HelpfulRerunRequest {
  /** The lesson under test. */
  lesson: Lesson;
  /**
   * The "### SKILL PLAYBOOK:" block holding this lesson alone. The runner adds
   * it to the original solver prompt (after any playbook block the original
   * already had, re-rendered with the lesson added) and changes nothing else.
   */
  playbookBlock: string;
  /** The sampler seed of the original solve: the re-run must use it, so the lesson is the only difference. */
  samplerSeed: number;
}

/**
 * The cycle runner's re-run: solve the same challenge again, in the same
 * sandbox, with the same attempt budget, the original sampler seed and the
 * lesson added; resolve to how it went. A throw fails the verification.
 */
export type HelpfulRerun = (request: HelpfulRerunRequest) => Promise<SolveOutcome>;

export interface VerifyLessonHelpfulOptions {
  /** A lesson that passed the generalization guard. */
  lesson: Lesson;
  /** How the solver did without the lesson. */
  original: SolveOutcome;
  /** The sampler seed the original solve used. */
  samplerSeed: number;
  rerun: HelpfulRerun;
}

/** verify-helpful's answer: the lesson it judged, the decision and both outcomes. */
export interface HelpfulVerdict {
  lesson: Lesson;
  kept: boolean;
  reason: HelpfulReason;
  original: SolveOutcome;
  /** The re-run's outcome; null when none was made (the original passed first try). */
  verify: SolveOutcome | null;
}

/**
 * The second gate: re-runs the solver once with the lesson (only when the
 * original left room to improve) and keeps the lesson only if the outcome is
 * strictly better (decideHelpful).
 */
export async function verifyLessonHelpful(options: VerifyLessonHelpfulOptions): Promise<HelpfulVerdict> {
  const { lesson, original } = options;
  if (!leavesRoomToImprove(original)) return { lesson, kept: false, reason: "no-room-to-improve", original, verify: null };
  const verify = await options.rerun({
    lesson,
    playbookBlock: playbookPrompt([lesson], lesson.domains),
    samplerSeed: options.samplerSeed,
  });
  const decision = decideHelpful(original, verify);
  return { lesson, kept: decision.keep, reason: decision.reason, original, verify };
}
