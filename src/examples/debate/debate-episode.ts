import { z } from "zod";
import { AlternatingRolesEpisode, type AlternatingRolesState } from "../../core/episodes/alternating-roles-episode.js";
import { InvalidInputError } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { ZeroSumJudgeVerifier } from "../../core/verifiers/zero-sum-judge-verifier.js";

const DebateArtifactSchema = z.object({ topic: z.string().min(1) });
export type DebateArtifact = z.infer<typeof DebateArtifactSchema>;

export interface DebateEpisodeOptions {
  /** Rounds of one affirmative and one negative turn each. Default 2. */
  rounds?: number;
  /** Judge replies that may fail to parse before the debate counts as failed. Default 3. */
  judgeAttempts?: number;
  /** Tokens per debater turn. Default 64. */
  maxTokens?: number;
}

/**
 * Two debaters, `aff` (for the motion) and `neg` (against), alternate; an LLM
 * judge, who is not a Role, names the winner: +1 to the winner, −1 to the loser.
 */
export class DebateEpisode extends AlternatingRolesEpisode<DebateArtifact> {
  readonly type = "debate";
  readonly roles: readonly Role[];
  readonly verifier: ZeroSumJudgeVerifier;
  protected readonly artifactSchema = DebateArtifactSchema;
  protected readonly turnOrder = ["aff", "neg"] as const;
  protected readonly maxTurns: number;

  constructor(options: DebateEpisodeOptions = {}) {
    super();
    this.verifier = new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", maxAttempts: options.judgeAttempts ?? 3 });
    const rounds = options.rounds ?? 2;
    if (!Number.isInteger(rounds) || rounds < 1) throw new InvalidInputError("rounds", "an integer ≥ 1", rounds);
    this.maxTurns = rounds * 2;
    const sampler = { maxTokens: options.maxTokens ?? 64 };
    this.roles = [
      RoleSchema.parse({ id: "aff", systemPrompt: "You argue FOR the motion. Be brief and concrete.", sampler }),
      RoleSchema.parse({ id: "neg", systemPrompt: "You argue AGAINST the motion. Be brief and concrete.", sampler }),
    ];
  }

  protected openingPrompt(artifact: DebateArtifact): string {
    return `Motion: ${artifact.topic}`;
  }

  finalize(state: AlternatingRolesState, artifact: DebateArtifact): JsonObject {
    return { topic: artifact.topic, turns: state.turns.length };
  }
}

/** Motions the CLI's debate run samples from. */
export const DEBATE_TOPICS: readonly string[] = [
  "Unit tests matter more than integration tests.",
  "Small models trained well beat large models trained badly.",
  "Every public API should be versioned from day one.",
  "Greedy decoding is the right default for evaluation.",
  "Self-play can teach a model skills no dataset contains.",
  "Tabs are better than spaces.",
  "A reward model should never be trained on its own policy's outputs.",
  "Determinism is worth a 10% slowdown.",
];
