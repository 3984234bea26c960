import type { Rewards } from "../../core/schemas/generate-result.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";

export interface TournamentVerifierOptions {
  /** Taken off an LLM citizen's reward per action of its that the gate refused. */
  rejectionPenalty: number;
}

interface CitizenSummary {
  outcome: number;
  rejected: number;
}

/**
 * Rewards each LLM citizen that has Steps with its outcome (from the
 * episode's `finalize`: worst-off share or capture score, in [0, 1]) less
 * `rejectionPenalty` per refused action. Reads the finalized summary only.
 */
export class TournamentVerifier implements Verifier {
  constructor(private readonly options: TournamentVerifierOptions) {}

  async score(rollout: Rollout): Promise<VerifierOutput> {
    const citizens = rollout.artifacts.citizens as unknown as Record<string, CitizenSummary>;
    const acted = new Set(rollout.steps.map((step) => step.roleId));
    const rewards: Rewards = {};
    for (const [citizen, summary] of Object.entries(citizens)) {
      if (acted.has(citizen)) rewards[citizen] = summary.outcome - this.options.rejectionPenalty * summary.rejected;
    }
    return { rewards, details: { findings: rollout.artifacts.findings ?? [], worstOffShare: rollout.artifacts.worstOffShare ?? null } };
  }
}
