import type { ScoringContext, StructuredJudgeOptions } from "../../core/verifiers/verifier.js";
import { lessonExtractionPrompt, type LessonExtractionInput } from "./lesson-extraction-prompt.js";
import { LessonCandidateSchema, type LessonCandidate } from "./lesson.js";

/**
 * The judge a lesson is asked of: an EpisodeContext or ScoringContext fits
 * (their `judgeObject` is never a Step, so lesson extraction never trains the
 * solver), and so does any function pair a test scripts.
 */
export type LessonJudge = Pick<ScoringContext, "judgeObject">;

/** The proposed lesson, before the gates, and what it took to get it. */
export interface ExtractedLesson {
  candidate: LessonCandidate;
  /** The judge's raw text. */
  text: string;
  /** Judge samples drawn, the valid one included. */
  attempts: number;
}

/**
 * Asks the judge for a lesson after a won challenge, through strict JSON
 * (LessonCandidateSchema, resampled until valid). The result has passed no
 * gate yet: run checkGeneralization, then verify-helpful, before the playbook.
 * Throws StructuredOutputError when the judge never answers valid JSON.
 */
export async function extractLesson(
  judge: LessonJudge,
  input: LessonExtractionInput,
  options: StructuredJudgeOptions = {},
): Promise<ExtractedLesson> {
  // A lesson is a paragraph of JSON: the judge's 64-token default would cut it off.
  const sampler = { maxTokens: 512, ...options.sampler };
  const response = await judge.judgeObject(lessonExtractionPrompt(input), LessonCandidateSchema, { ...options, sampler });
  return { candidate: response.value, text: response.text, attempts: response.attempts };
}
