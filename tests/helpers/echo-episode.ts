import { z } from "zod";
import { SingleTurnEpisode } from "../../src/core/episodes/single-turn-episode.js";
import type { Messages } from "../../src/core/schemas/message.js";
import { RoleSchema, type Role, type RoleInput } from "../../src/core/schemas/role.js";
import { ExactMatchVerifier } from "../../src/core/verifiers/exact-match-verifier.js";
import type { Verifier } from "../../src/core/verifiers/verifier.js";

const QuestionSchema = z.object({ question: z.string(), expected: z.string() });
export type Question = z.infer<typeof QuestionSchema>;

/** A single-turn episode for arena tests: the `answerer` role answers; exact match against `expected`. */
export class QuestionEpisode extends SingleTurnEpisode<Question> {
  readonly roles: readonly Role[];
  readonly verifier: Verifier;
  protected readonly roleId = "answerer";
  protected readonly artifactSchema = QuestionSchema;

  constructor(
    readonly type = "question",
    role: Partial<RoleInput> = {},
    verifier?: Verifier,
  ) {
    super();
    this.roles = [RoleSchema.parse({ id: "answerer", ...role })];
    this.verifier = verifier ?? new ExactMatchVerifier({ roleId: "answerer" });
  }

  protected prompt(artifact: Question): Messages {
    return [{ role: "user", content: artifact.question }];
  }

  override finalize(state: { response: { text: string } }, artifact: Question) {
    return { answer: state.response.text, expected: artifact.expected };
  }
}

/** A request for QuestionEpisode. */
export function ask(question: string, expected: string, groupId?: string) {
  return { episodeType: "question", artifact: { question, expected }, ...(groupId ? { groupId } : {}) };
}
