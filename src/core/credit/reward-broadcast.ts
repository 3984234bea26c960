import type { CreditAssigner, CreditSample } from "./credit-assigner.js";

/** REINFORCE without a baseline: every Step of a role gets the role's reward. */
export class RewardBroadcast implements CreditAssigner {
  readonly name = "reward-broadcast";

  assign(samples: readonly CreditSample[]): number[] {
    return samples.map((sample) => sample.reward);
  }
}
