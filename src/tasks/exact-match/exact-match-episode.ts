import { z } from "zod";
import { SingleTurnEpisode, type SingleTurnState } from "../../core/episodes/single-turn-episode.js";
import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { ExactMatchVerifier } from "../../core/verifiers/exact-match-verifier.js";
import { firstInteger } from "../../core/answers/answer-extractors.js";

const QuestionSchema = z.object({
  question: z.string().min(1),
  answer: z.string(),
  /** Its cluster, for the frontier and group sizing (`frontier.mode`, `frontier.groupSizing`); optional. */
  cluster: z.string().min(1).optional(),
});
export type ExactMatchQuestion = z.infer<typeof QuestionSchema>;

/** How an answer is read from the completion: its first integer, or the whole text (trimmed). */
export const AnswerFormatSchema = z.enum(["integer", "text"]);
export type AnswerFormat = z.infer<typeof AnswerFormatSchema>;

export interface ExactMatchEpisodeOptions {
  /** Completion tokens at most. */
  maxTokens: number;
  answerFormat: AnswerFormat;
}

/** Reads an answer in `format`. */
export function readAnswer(completion: string, format: AnswerFormat): string | undefined {
  return format === "integer" ? firstInteger(completion) : completion;
}

/** One question, one answer by the `student` role, reward 1 for an exact match of the expected answer, else 0. */
export class ExactMatchEpisode extends SingleTurnEpisode<ExactMatchQuestion> {
  readonly type = "exact-match";
  readonly roles: readonly Role[];
  readonly verifier: ExactMatchVerifier;
  protected readonly roleId = "student";
  protected readonly artifactSchema = QuestionSchema;

  constructor(options: ExactMatchEpisodeOptions) {
    super();
    this.roles = [RoleSchema.parse({ id: "student", sampler: { maxTokens: options.maxTokens } })];
    this.verifier = new ExactMatchVerifier({ roleId: "student", extractAnswer: (completion) => readAnswer(completion, options.answerFormat) });
  }

  protected prompt(artifact: ExactMatchQuestion): Messages {
    return [{ role: "user", content: artifact.question }];
  }

  override finalize(state: SingleTurnState, artifact: ExactMatchQuestion): JsonObject {
    return { answer: state.response.text, expected: artifact.answer };
  }
}
