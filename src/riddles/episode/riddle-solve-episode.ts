import { z } from "zod";
import { Episode } from "../../core/episodes/episode.js";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import type { JsonObject } from "../../core/json.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import { RIDDLE_ROLE_IDS, type RiddleDomain } from "../domains/riddle-domain.js";
import { RiddleSchema, type SolverAnswer } from "../riddle-contracts.js";
import type { SolverRun } from "../riddle-outcome.js";

/** What the actor hands one solver: the riddle (its solution is for the critic only), the profile and the partner allowance. */
export const RiddleSolveArtifactSchema = z.strictObject({
  riddle: RiddleSchema,
  solverId: z.string().min(1),
  profile: z.strictObject({ name: z.string(), instruction: z.string(), temperature: z.number().min(0) }),
  wave: z.int().min(0),
  /** Partner discussions this solver may have (the actor's per-solver and remaining total caps). */
  partnersAllowed: z.int().min(0),
  actorMemory: z.string().default(""),
});
export type RiddleSolveArtifact = z.infer<typeof RiddleSolveArtifactSchema>;

interface RiddleSolveState {
  run: SolverRun;
  partnersUsed: number;
}

/** Sub-episode type of one solver. */
export const RIDDLE_SOLVE_EPISODE_TYPE = "riddle-solve";

/**
 * One solver of a riddle episode, as a sub-episode so each solver has its own
 * reward (1 when the critic grades it correct, else 0) and the solvers of one
 * riddle form one credit group. A help request opens a partner discussion
 * within the allowance; the partner shares the solver's reward and only a
 * short summary of the discussion is kept.
 */
export class RiddleSolveEpisode extends Episode<RiddleSolveArtifact, RiddleSolveState> {
  readonly type = RIDDLE_SOLVE_EPISODE_TYPE;
  readonly roles;
  readonly verifier: Verifier = new SolverCorrectnessVerifier();
  protected readonly artifactSchema = RiddleSolveArtifactSchema;

  constructor(private readonly domain: RiddleDomain) {
    super();
    this.roles = [domain.roles.solver, domain.roles.partner];
  }

  async rollout(context: EpisodeContext, artifact: RiddleSolveArtifact): Promise<RiddleSolveState> {
    const ask = (partnerSummary: string) =>
      this.domain.solve(context, { riddle: artifact.riddle.riddle, profile: artifact.profile, actorMemory: artifact.actorMemory, partnerSummary });
    let { answer } = await ask("");
    let partnersUsed = 0;
    const summaries: string[] = [];
    while (this.domain.helpRequests && answer?.helpRequest.needed && partnersUsed < artifact.partnersAllowed) {
      const summary = await this.domain.consultPartner(context, artifact.riddle.riddle, answer as SolverAnswer);
      partnersUsed++;
      summaries.push(summary);
      ({ answer } = await ask(summaries.join(" / ")));
    }
    const grade = await this.domain.grade(context, artifact.riddle, answer);
    return {
      run: {
        solverId: artifact.solverId,
        profile: artifact.profile.name,
        wave: artifact.wave,
        answer,
        correct: grade.correct,
        gradeNotes: grade.notes,
        askedPartner: partnersUsed > 0,
        partnerSummary: summaries.join(" / ").slice(0, 300),
      },
      partnersUsed,
    };
  }

  finalize(state: RiddleSolveState): JsonObject {
    return { ...state.run, partnersUsed: state.partnersUsed } as unknown as JsonObject;
  }
}

/** The solver (and its partner, when it had one) earn 1 for a correct answer, 0 otherwise. */
class SolverCorrectnessVerifier implements Verifier {
  async score(rollout: Rollout): Promise<VerifierOutput> {
    const reward = rollout.artifacts["correct"] === true ? 1 : 0;
    const partnered = rollout.steps.some((step) => step.roleId === RIDDLE_ROLE_IDS.partner);
    return { rewards: { [RIDDLE_ROLE_IDS.solver]: reward, ...(partnered && { [RIDDLE_ROLE_IDS.partner]: reward }) } };
  }
}
