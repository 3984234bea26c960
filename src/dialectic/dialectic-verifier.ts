import { parseInput } from "../core/parse-input.js";
import type { Rewards } from "../core/schemas/generate-result.js";
import type { Rollout } from "../core/schemas/rollout.js";
import type { Verifier, VerifierOutput } from "../core/verifiers/verifier.js";
import { DialecticOutcomeSchema } from "./dialectic-outcome.js";
import type { DialecticRound } from "./dialectic-round.js";
import { criticAgreementReward, proposerReward } from "./dialectic-rewards.js";

export interface DialecticVerifierOptions {
  /** Weight of the score's rise over the first round in the proposer's reward. */
  improvementWeight: number;
  /** Reward the `critic` role too (only when the critic is a trainable Role). */
  trainableCritic: boolean;
}

/**
 * Scores a finished loop from its recorded outcome; the critiques were made
 * during the rollout, so scoring asks no model.
 */
export class DialecticVerifier implements Verifier {
  constructor(private readonly options: DialecticVerifierOptions) {}

  async score(rollout: Rollout): Promise<VerifierOutput> {
    const outcome = parseInput(DialecticOutcomeSchema, rollout.artifacts, {
      fieldName: (path) => `artifacts.${path.map(String).join(".")} (rollout ${rollout.id})`,
    });
    const rewards: Rewards = { proposer: proposerReward(outcome, this.options.improvementWeight) };
    if (this.options.trainableCritic) rewards["critic"] = criticAgreementReward(outcome.rounds);
    // The schema guarantees at least one round.
    const firstScore = (outcome.rounds[0] as DialecticRound).critique.score;
    return {
      rewards,
      details: {
        state: outcome.state,
        pattern: outcome.pattern,
        rounds: outcome.rounds.length,
        firstScore,
        finalScore: outcome.finalScore,
        improvement: outcome.finalScore - firstScore,
      },
    };
  }
}
