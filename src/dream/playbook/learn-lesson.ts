import type { StructuredJudgeOptions } from "../../core/verifiers/verifier.js";
import { extractLesson, type LessonJudge } from "../lessons/extract-lesson.js";
import { checkGeneralization, type GeneralizationRejection } from "../lessons/generalization-guard.js";
import type { LessonCandidate } from "../lessons/lesson.js";
import type { LessonExtractionInput } from "../lessons/lesson-extraction-prompt.js";
import type { SolveOutcome } from "../lessons/solve-outcome.js";
import { verifyLessonHelpful, type HelpfulRerun, type HelpfulVerdict } from "../lessons/verify-lesson-helpful.js";
import type { AdmitResult, Playbook } from "./playbook.js";

export interface LearnLessonOptions {
  /** Who writes the lesson (an episode context, or clientLessonJudge). */
  judge: LessonJudge;
  /** The won challenge and how it was won. */
  input: LessonExtractionInput;
  /** How the solver did without the lesson. */
  original: SolveOutcome;
  /** The sampler seed of that solve, handed to `rerun`. */
  samplerSeed: number;
  /** The cycle runner's re-run with the lesson added. */
  rerun: HelpfulRerun;
  /** Where a kept lesson goes. */
  playbook: Playbook;
  /** Options of the judge call (attempts, sampler). */
  judgeOptions?: StructuredJudgeOptions;
}

/** Where a lesson's way into the playbook ended. */
export type LearnLessonResult =
  | { status: "rejected"; candidate: LessonCandidate; rejection: GeneralizationRejection }
  | { status: "dropped"; candidate: LessonCandidate; verdict: HelpfulVerdict }
  | { status: "admitted"; candidate: LessonCandidate; verdict: HelpfulVerdict; admitted: AdmitResult };

/**
 * The lesson pipeline after a won cycle, in the seed's order: extract, the
 * generalization guard, verify-helpful (a re-run only when the original
 * struggled), then the playbook. Each stop is a result, not an error, so the
 * cycle can count rejections by kind.
 */
export async function learnLesson(options: LearnLessonOptions): Promise<LearnLessonResult> {
  const { input } = options;
  const { candidate } = await extractLesson(options.judge, input, options.judgeOptions);
  const source = { prompt: input.prompt, setup: input.setup, validator: input.validator, challengeHash: input.challengeHash };
  const guard = checkGeneralization(candidate, source);
  if (!guard.accepted) return { status: "rejected", candidate, rejection: guard.rejection };
  const verdict = await verifyLessonHelpful({
    lesson: guard.lesson,
    original: options.original,
    samplerSeed: options.samplerSeed,
    rerun: options.rerun,
  });
  if (!verdict.kept) return { status: "dropped", candidate, verdict };
  return { status: "admitted", candidate, verdict, admitted: await options.playbook.admit(verdict, source) };
}
