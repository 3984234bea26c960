import { z } from "zod";
import { SingleTurnEpisode, type SingleTurnState } from "../../core/episodes/single-turn-episode.js";
import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { ExactMatchVerifier } from "../../core/verifiers/exact-match-verifier.js";
import { firstInteger } from "../../core/answers/answer-extractors.js";

const SolveArtifactSchema = z.object({ problem: z.string().min(1), answer: z.string() });
export type SolveArtifact = z.infer<typeof SolveArtifactSchema>;

export const SOLVER_ROLE: Role = RoleSchema.parse({
  id: "solver",
  systemPrompt: "Solve the arithmetic problem. Reply with the number only.",
  sampler: { maxTokens: 8 },
});

/** One solver attempt: the answer's first integer must equal the true one (reward 1, else 0). */
export class SolverEpisode extends SingleTurnEpisode<SolveArtifact> {
  readonly type = "solve";
  readonly roles = [SOLVER_ROLE];
  readonly verifier = new ExactMatchVerifier({ roleId: "solver", extractAnswer: firstInteger });
  protected readonly roleId = "solver";
  protected readonly artifactSchema = SolveArtifactSchema;

  protected prompt(artifact: SolveArtifact): Messages {
    return [{ role: "user", content: `${artifact.problem}=` }];
  }

  override finalize(state: SingleTurnState, artifact: SolveArtifact): JsonObject {
    return { answer: firstInteger(state.response.text) ?? null, expected: artifact.answer };
  }
}
