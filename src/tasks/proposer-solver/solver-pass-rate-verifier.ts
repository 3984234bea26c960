import { difficultyReward, type DifficultyReward } from "../../core/rewards/difficulty-reward.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { MonteCarloVerifier } from "../../core/verifiers/monte-carlo-verifier.js";

/** Scores the proposer Monte-Carlo: the pass rate of its solver sub-episodes (reward 1 = passed) through a difficulty reward. */
export function solverPassRateVerifier(reward: DifficultyReward): MonteCarloVerifier {
  return new MonteCarloVerifier({
    roleId: "proposer",
    passed: (child: GenerateResult) => child.rewards["solver"] === 1,
    reward: (passRate) => difficultyReward(reward, passRate),
  });
}
