import { z } from "zod";
import { extractAnswer, type AnswerExtractor } from "../../core/answers/answer-extractors.js";
import { answersMatch } from "../../core/answers/answers-match.js";
import { SingleTurnEpisode, type SingleTurnState } from "../../core/episodes/single-turn-episode.js";
import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { ExactMatchVerifier } from "../../core/verifiers/exact-match-verifier.js";
import { solverPrompt, type SolverPrompt } from "./solver-prompt.js";

const SolveArtifactSchema = z.object({ problem: z.string().min(1), answer: z.string() });
export type SolveArtifact = z.infer<typeof SolveArtifactSchema>;

/** The solver as the bundled base plays it: `12+7=` → `19`. */
export const SOLVER_ROLE: Role = RoleSchema.parse({
  id: "solver",
  systemPrompt: "Solve the arithmetic problem. Reply with the number only.",
  sampler: { maxTokens: 8 },
});

export interface SolverEpisodeOptions {
  /** How the problem is asked: `bare` (`12+7=`) or `words` (`What is 12 + 7?`). Default `bare`. */
  prompt?: SolverPrompt;
  /** The solver's system prompt. Default SOLVER_ROLE's. */
  system?: string;
  /** Completion tokens of an answer. Default 8. */
  maxTokens?: number;
  /** How the answer is read out of the completion (core's named extractors). Default `first-integer`. */
  extractor?: AnswerExtractor;
}

/** One solver attempt: the answer the extractor reads must equal the true one, as numbers (reward 1, else 0). */
export class SolverEpisode extends SingleTurnEpisode<SolveArtifact> {
  readonly type = "solve";
  readonly roles: readonly Role[];
  readonly verifier: ExactMatchVerifier;
  protected readonly roleId = "solver";
  protected readonly artifactSchema = SolveArtifactSchema;
  private readonly form: SolverPrompt;
  private readonly extractor: AnswerExtractor;

  constructor(options: SolverEpisodeOptions = {}) {
    super();
    this.form = options.prompt ?? "bare";
    this.extractor = options.extractor ?? "first-integer";
    this.roles = [RoleSchema.parse({ ...SOLVER_ROLE, systemPrompt: options.system ?? SOLVER_ROLE.systemPrompt, sampler: { maxTokens: options.maxTokens ?? SOLVER_ROLE.sampler.maxTokens } })];
    this.verifier = new ExactMatchVerifier({ roleId: "solver", extractAnswer: (completion) => extractAnswer(this.extractor, completion), matches: answersMatch });
  }

  /** Completion tokens of an answer. */
  get maxTokens(): number {
    return (this.roles[0] as Role).sampler.maxTokens as number;
  }

  /** The conversation a solver's Step sees for `problem`, its system prompt first: what a held-out evaluation asks. */
  question(problem: string): Messages {
    return [{ role: "system", content: (this.roles[0] as Role).systemPrompt }, ...solverPrompt(problem, this.form)];
  }

  /** Whether a completion answers `expected`, as the verifier reads it. */
  answers(completion: string, expected: string): boolean {
    return answersMatch(extractAnswer(this.extractor, completion), expected);
  }

  protected prompt(artifact: SolveArtifact): Messages {
    return solverPrompt(artifact.problem, this.form);
  }

  override finalize(state: SingleTurnState, artifact: SolveArtifact): JsonObject {
    return { answer: extractAnswer(this.extractor, state.response.text) ?? null, expected: artifact.answer };
  }
}
