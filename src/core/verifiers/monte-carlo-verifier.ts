import { InvalidRewardError } from "../errors/index.js";
import type { GenerateResult } from "../schemas/generate-result.js";
import type { Rollout } from "../schemas/rollout.js";
import type { ScoringContext, Verifier, VerifierOutput } from "./verifier.js";

export interface MonteCarloVerifierOptions {
  /** The role rewarded from its children's pass rate (a proposer). */
  roleId: string;
  /** Whether one child succeeded, e.g. `child => child.rewards.solver === 1`. */
  passed: (child: GenerateResult) => boolean;
  /** Maps the pass rate to the reward, e.g. a difficulty-targeting reward. */
  reward: (passRate: number) => number;
}

/**
 * Scores a parent from its sub-episodes: the pass rate is the share of scored
 * children that passed (children that failed to run are left out, since their
 * failure says nothing about the parent's task). No scored child is an error.
 */
export class MonteCarloVerifier implements Verifier {
  constructor(private readonly options: MonteCarloVerifierOptions) {}

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const scored = context.children.filter((child) => child.outcome.status === "scored");
    if (scored.length === 0) {
      throw new InvalidRewardError(
        `rollout ${rollout.id}: none of its ${context.children.length} sub-episodes was scored, so it has no pass rate`,
      );
    }
    const passes = scored.filter((child) => this.options.passed(child)).length;
    const passRate = passes / scored.length;
    return {
      rewards: { [this.options.roleId]: this.options.reward(passRate) },
      details: { passRate, passes, scoredChildren: scored.length, failedChildren: context.children.length - scored.length },
    };
  }
}
