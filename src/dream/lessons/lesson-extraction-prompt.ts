import type { Messages } from "../../core/schemas/message.js";
import { LESSON_DOMAINS } from "./lesson-domains.js";

/** What a won challenge leaves to learn from. */
export interface LessonExtractionInput {
  /** The challenge prompt the solver saw. */
  prompt: string;
  /** The setup program's source. */
  setup: string;
  /** The validator program's source. */
  validator: string;
  /** The error summary of each failed attempt before the win, oldest first (empty for a first-try win). */
  failedAttemptErrors: readonly string[];
  /** The solution that passed the validator. */
  winningSolution: string;
  /** The challenge's hash, recorded on the lesson. */
  challengeHash: string;
}

const INSTRUCTIONS = [
  "You review a solved JavaScript (Node 20) programming challenge and write ONE reusable lesson for future, different challenges.",
  "Answer with a single JSON object and nothing else:",
  '{"trigger": string, "antiPattern": string, "correctPattern": string, "domains": string[], "confidence": number}',
  "- trigger: the kind of situation where the lesson applies, in general terms; do not restate this challenge.",
  "- antiPattern: what the failed attempts did wrong.",
  "- correctPattern: the technique that works, described in words; do not copy code from the setup or the validator.",
  `- domains: one or more of ${LESSON_DOMAINS.join(", ")}.`,
  "- confidence: 0 to 1, how sure you are that the lesson helps on other challenges.",
].join("\n");

/** The judge conversation that asks for a lesson (the meta-cognitive call of the seed). */
export function lessonExtractionPrompt(input: LessonExtractionInput): Messages {
  const errors =
    input.failedAttemptErrors.length === 0
      ? "(none: solved on the first attempt)"
      : input.failedAttemptErrors.map((error, index) => `Attempt ${index + 1}: ${error}`).join("\n");
  const user = [
    `## Challenge\n${input.prompt}`,
    `## Setup program\n${input.setup}`,
    `## Validator program\n${input.validator}`,
    `## Errors of the failed attempts\n${errors}`,
    `## Winning solution\n${input.winningSolution}`,
  ].join("\n\n");
  return [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: user },
  ];
}
