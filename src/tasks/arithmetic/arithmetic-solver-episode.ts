import { z } from "zod";
import { SingleTurnEpisode, type SingleTurnState } from "../../core/episodes/single-turn-episode.js";
import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { ExactMatchVerifier } from "../../core/verifiers/exact-match-verifier.js";
import { firstInteger } from "../../core/answers/answer-extractors.js";
import { solverMessages } from "./arithmetic-prompts.js";

const ArithmeticSolveArtifactSchema = z.object({ problem: z.string().min(1), answer: z.string(), cluster: z.string() });
export type ArithmeticSolveArtifact = z.infer<typeof ArithmeticSolveArtifactSchema>;

/** The solver of the arithmetic self-play: `23+45=` → `68`, 8 tokens at most (an answer and the end of sequence). */
export const ARITHMETIC_SOLVER_ROLE: Role = RoleSchema.parse({ id: "solver", sampler: { maxTokens: 8 } });

/** One solver attempt: reward 1 when the reply's first integer is the true answer, else 0. */
export class ArithmeticSolverEpisode extends SingleTurnEpisode<ArithmeticSolveArtifact> {
  readonly type = "arithmetic-solve";
  readonly roles = [ARITHMETIC_SOLVER_ROLE];
  readonly verifier = new ExactMatchVerifier({ roleId: "solver", extractAnswer: firstInteger });
  protected readonly roleId = "solver";
  protected readonly artifactSchema = ArithmeticSolveArtifactSchema;

  protected prompt(artifact: ArithmeticSolveArtifact): Messages {
    return solverMessages(artifact.problem);
  }

  override finalize(state: SingleTurnState, artifact: ArithmeticSolveArtifact): JsonObject {
    return { answer: firstInteger(state.response.text) ?? null, expected: artifact.answer, cluster: artifact.cluster };
  }
}
