import { z } from "zod";
import { SingleTurnEpisode, type SingleTurnState } from "../../core/episodes/single-turn-episode.js";
import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { ChallengeSchema } from "../../dream/challenges/challenge.js";
import type { ChallengeSandboxOptions } from "../../dream/challenges/create-challenge-sandbox.js";
import { DREAM_SOLVER_ROLE } from "../../dream/solver/dream-solver-role.js";
import { extractSolutionSource } from "../../dream/solver/extract-solution-source.js";
import { solverPrompt } from "../../dream/solver/solver-prompt.js";
import { DreamAttemptVerifier } from "./dream-attempt-verifier.js";

/** What one dream episode attempts: a rendered challenge and the playbook block shown with it ("" for none). */
export const DreamArtifactSchema = z.strictObject({ challenge: ChallengeSchema, playbookBlock: z.string().default("") });
export type DreamArtifact = z.input<typeof DreamArtifactSchema>;

/** The episode type of `selfplay train --env dream`. */
export const DREAM_EPISODE_TYPE = "dream";

export interface DreamEpisodeOptions {
  /** Completion tokens at most for a solution. */
  maxTokens: number;
  /** The sandbox limits of every program the grading runs. */
  sandbox: ChallengeSandboxOptions;
}

/**
 * One attempt at a dream challenge by the solver Role (DREAM_SOLVER_ROLE, so
 * what is trained is what dreams): the solver's prompt, one program, graded by
 * running it through the challenge's setup and validator in the sandbox.
 */
export class DreamEpisode extends SingleTurnEpisode<z.output<typeof DreamArtifactSchema>> {
  readonly type = DREAM_EPISODE_TYPE;
  readonly roles: readonly Role[];
  readonly verifier: DreamAttemptVerifier;
  protected readonly roleId = DREAM_SOLVER_ROLE.id;
  protected readonly artifactSchema = DreamArtifactSchema;

  constructor(options: DreamEpisodeOptions) {
    super();
    this.roles = [RoleSchema.parse({ ...DREAM_SOLVER_ROLE, sampler: { ...DREAM_SOLVER_ROLE.sampler, maxTokens: options.maxTokens } })];
    this.verifier = new DreamAttemptVerifier({ roleId: DREAM_SOLVER_ROLE.id, sandbox: options.sandbox });
  }

  protected prompt(artifact: z.output<typeof DreamArtifactSchema>): Messages {
    return dreamPrompt(artifact);
  }

  override finalize(state: SingleTurnState, artifact: z.output<typeof DreamArtifactSchema>): JsonObject {
    // The whole challenge rides in the rollout: the verifier grades from it, and the record shows what was attempted.
    return { challenge: artifact.challenge, solution: extractSolutionSource(state.response.text) };
  }
}

/** The solver's conversation for a first attempt at the artifact's challenge (no journal, no earlier errors). */
export function dreamPrompt(artifact: z.output<typeof DreamArtifactSchema>): Messages {
  return solverPrompt({
    challengePrompt: artifact.challenge.prompt,
    outputFile: artifact.challenge.outputFile,
    playbookBlock: artifact.playbookBlock,
    journalExcerpts: [],
    previousErrors: [],
  });
}
