import { Episode } from "../../core/episodes/episode.js";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import type { JsonObject, JsonValue } from "../../core/json.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Role } from "../../core/schemas/role.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Step } from "../../core/schemas/step.js";
import type { Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import { PartnerBudget } from "../actor/partner-budget.js";
import { assignSolverProfiles, type SolverProfile } from "../actor/solver-profiles.js";
import { summariseStatus } from "../actor/summarise-status.js";
import { RIDDLE_ROLE_IDS, type RiddleDomain } from "../domains/riddle-domain.js";
import { RiddleArtifactSchema, type RiddleArtifact } from "../riddle-artifact.js";
import type { RiddleConfig } from "../riddle-config.js";
import type { Riddle } from "../riddle-contracts.js";
import type { RiddleEpisodeHooks, RiddleProgress } from "../riddle-episode-hooks.js";
import { RiddleEpisodeOutcomeSchema, SolverRunSchema, type RiddleEpisodeOutcome, type SolverRun } from "../riddle-outcome.js";
import { clearlyOutsideBand } from "../wilson-interval.js";
import { REJECTED_RIDDLER_ROLE_ID, rejectedRiddlerRole } from "./riddle-roles.js";
import { RIDDLE_SOLVE_EPISODE_TYPE, type RiddleSolveArtifact } from "./riddle-solve-episode.js";
import { checkDuplicate, riddlerReward } from "./riddler-reward.js";

/** Episode type of a riddle episode. */
export const RIDDLE_EPISODE_TYPE = "riddle";

/** What a riddle rollout carries from `rollout` to `finalize`. */
interface RiddleState {
  outcome: RiddleEpisodeOutcome;
}

type Attempt = RiddleEpisodeOutcome["attempts"][number];

/** Longest raw riddler output kept per attempt. */
const MAX_RAW_CHARS = 1000;

/**
 * One riddle episode. The riddler (a Role) writes a riddle; the critic (code
 * or judge calls, never Steps) checks it, and a rejected draft is rewritten
 * within `validityRetries` — its Step moved to the untrainable
 * `riddler-rejected` role, so it is counted, not trained on, and never drags
 * the riddler's baseline. With no valid riddle the episode is a no-op. The
 * actor then runs solvers (`riddle-solve` sub-episodes, one credit group) in
 * waves, each with an instruction profile, granting partner discussions
 * within both caps; after each wave it stops once the Wilson interval of the
 * solve rate lies wholly outside the band. The riddler is paid by the
 * Gaussian of the solve rate, less the near-duplicate penalty.
 */
export class RiddleEpisode extends Episode<RiddleArtifact, RiddleState> {
  readonly type = RIDDLE_EPISODE_TYPE;
  readonly roles: readonly Role[];
  readonly verifier: Verifier = new RiddlerVerifier();
  protected readonly artifactSchema = RiddleArtifactSchema;

  constructor(
    private readonly config: RiddleConfig,
    private readonly domain: RiddleDomain,
    private readonly hooks: RiddleEpisodeHooks = {},
  ) {
    super();
    this.roles = [domain.roles.riddler, rejectedRiddlerRole(domain.roles.riddler)];
  }

  async rollout(context: EpisodeContext, artifact: RiddleArtifact): Promise<RiddleState> {
    const tokensByRole: Record<string, number> = {};
    const countTokens = (steps: readonly Step[]) => {
      for (const step of steps) tokensByRole[step.roleId] = (tokensByRole[step.roleId] ?? 0) + step.completionTokenIds.length;
    };
    // Riddler → critic, within the retry budget.
    const { riddle, attempts, riddlerSteps } = await this.writeRiddle(context, artifact);
    countTokens(riddlerSteps);
    const base = { domain: this.domain.name, episodeIndex: artifact.episodeIndex, attempts, statusSummaries: [] as string[] };
    if (!riddle) {
      return {
        outcome: {
          ...base,
          riddle: null,
          solverRuns: [],
          solved: 0,
          solveRate: null,
          earlyStop: { stopped: false, side: null, afterSolvers: 0 },
          solverCallsSaved: 0,
          partnersUsed: 0,
          duplicate: { similarity: 0, nearDuplicate: false, of: null },
          riddlerReward: 0,
          tokensByRole,
        },
      };
    }
    const duplicate = checkDuplicate(riddle.riddle, artifact.recentRiddles, this.config.duplicates);
    const solving = await this.runSolvers(context, artifact, riddle, base.statusSummaries, countTokens);
    const solveRate = solving.runs.length === 0 ? 0 : solving.solved / solving.runs.length;
    return {
      outcome: {
        ...base,
        riddle,
        solverRuns: solving.runs,
        solved: solving.solved,
        solveRate,
        earlyStop: solving.earlyStop,
        solverCallsSaved: this.config.solvers - solving.runs.length,
        partnersUsed: solving.partnersUsed,
        duplicate,
        riddlerReward: riddlerReward(solveRate, duplicate.nearDuplicate, this.config),
        tokensByRole,
      },
    };
  }

  finalize(state: RiddleState): JsonObject {
    return RiddleEpisodeOutcomeSchema.parse(state.outcome) as unknown as JsonObject;
  }

  /** Drafts until the critic accepts one or the retry budget is spent; rejected drafts' Steps leave the riddler role. */
  private async writeRiddle(context: EpisodeContext, artifact: RiddleArtifact): Promise<{ riddle: Riddle | null; attempts: Attempt[]; riddlerSteps: Step[] }> {
    const attempts: Attempt[] = [];
    const riddlerSteps: Step[] = [];
    let previousNotes = "";
    for (let attempt = 0; attempt <= this.config.validityRetries; attempt++) {
      const draft = await this.domain.draftRiddle(context, { artifact, config: this.config, attempt, previousNotes });
      const validity = draft.riddle ? await this.domain.checkValidity(context, draft.riddle) : { valid: false, notes: draft.notes };
      attempts.push({ riddle: draft.riddle, raw: draft.raw.slice(0, MAX_RAW_CHARS), valid: validity.valid, notes: validity.notes });
      riddlerSteps.push(draft.step);
      if (validity.valid && draft.riddle) return { riddle: draft.riddle, attempts, riddlerSteps };
      // The Step the context recorded is this draft's: filed under the untrainable role, it stays in the rollout for analysis.
      draft.step.roleId = REJECTED_RIDDLER_ROLE_ID;
      previousNotes = validity.notes;
    }
    return { riddle: null, attempts, riddlerSteps };
  }

  private async runSolvers(
    context: EpisodeContext,
    artifact: RiddleArtifact,
    riddle: Riddle,
    statusSummaries: string[],
    countTokens: (steps: readonly Step[]) => void,
  ): Promise<{ runs: SolverRun[]; solved: number; earlyStop: RiddleEpisodeOutcome["earlyStop"]; partnersUsed: number }> {
    const { config, hooks } = this;
    const profiles = assignSolverProfiles(config.solvers, context.random("solver-profiles"));
    const budget = new PartnerBudget(config.maxPartnersPerSolver, config.maxTotalPartners);
    const runs: SolverRun[] = [];
    let solved = 0;
    const progress = (): RiddleProgress => ({
      episodeIndex: artifact.episodeIndex,
      riddle: riddle.riddle,
      solversRun: runs.length,
      solversPlanned: config.solvers,
      solvedSoFar: solved,
      lastRun: runs.at(-1) ?? null,
    });
    const play = async (indices: readonly number[], wave: number) => {
      const grants = indices.map(() => budget.grant());
      const artifacts = indices.map(
        (index, position): RiddleSolveArtifact => ({
          riddle,
          solverId: `s${String(index + 1).padStart(2, "0")}`,
          profile: profiles[index] as SolverProfile,
          wave,
          partnersAllowed: grants[position] as number,
          actorMemory: artifact.actorMemory,
        }),
      );
      const results = await context.runSubEpisodes(
        artifacts.map((solve) => ({ episodeType: RIDDLE_SOLVE_EPISODE_TYPE, artifact: solve as unknown as JsonValue })),
      );
      for (const [position, result] of results.entries()) {
        const run = solverRunOf(result, artifacts[position] as RiddleSolveArtifact);
        budget.settle(grants[position] as number, result.rollout.steps.filter((step) => step.roleId === RIDDLE_ROLE_IDS.partner).length);
        countTokens(result.rollout.steps);
        runs.push(run);
        if (run.correct) solved++;
        hooks.onSolverGraded?.(progress());
        if (config.statusEverySolvers > 0 && runs.length % config.statusEverySolvers === 0) {
          statusSummaries.push(await summariseStatus(context, riddle.riddle, runs, config.solvers));
        }
      }
    };
    for (let start = 0, wave = 0; start < config.solvers; start += config.waveSize, wave++) {
      const indices = Array.from({ length: Math.min(config.waveSize, config.solvers - start) }, (_, offset) => start + offset);
      if (config.streamGradeEachSolver) {
        for (const index of indices) {
          if (runs.length > 0) await hooks.betweenSolvers?.(progress());
          await play([index], wave);
        }
      } else {
        if (runs.length > 0) await hooks.betweenSolvers?.(progress());
        await play(indices, wave);
      }
      if (config.earlyStop.enabled && runs.length < config.solvers) {
        const side = clearlyOutsideBand(solved, runs.length, config.band, config.earlyStop.wilsonZ);
        if (side) return { runs, solved, earlyStop: { stopped: true, side, afterSolvers: runs.length }, partnersUsed: budget.partnersUsed };
      }
    }
    return { runs, solved, earlyStop: { stopped: false, side: null, afterSolvers: runs.length }, partnersUsed: budget.partnersUsed };
  }
}

/** A solver sub-episode's run; a failed one (its error in gradeNotes) counts as not solved. */
function solverRunOf(result: GenerateResult, artifact: RiddleSolveArtifact): SolverRun {
  if (result.outcome.status === "failed") {
    return {
      solverId: artifact.solverId,
      profile: artifact.profile.name,
      wave: artifact.wave,
      answer: null,
      correct: false,
      gradeNotes: `solver rollout failed at ${result.outcome.stage}: ${result.outcome.error.message}`.slice(0, 300),
      askedPartner: false,
      partnerSummary: "",
    };
  }
  const { partnersUsed: _partnersUsed, ...run } = result.rollout.artifacts;
  return SolverRunSchema.parse(run);
}

/** The riddler's reward from the outcome; rejected drafts' role gets 0 (it is never trained). */
class RiddlerVerifier implements Verifier {
  async score(rollout: Rollout): Promise<VerifierOutput> {
    const outcome = rollout.artifacts as unknown as RiddleEpisodeOutcome;
    const rejected = rollout.steps.some((step) => step.roleId === REJECTED_RIDDLER_ROLE_ID);
    return {
      rewards: {
        ...(outcome.riddle !== null && { [RIDDLE_ROLE_IDS.riddler]: outcome.riddlerReward }),
        ...(rejected && { [REJECTED_RIDDLER_ROLE_ID]: 0 }),
      },
      details: { solveRate: outcome.solveRate, invalidAttempts: outcome.attempts.filter((attempt) => !attempt.valid).length },
    };
  }
}
