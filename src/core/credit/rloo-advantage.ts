import { groupSamples, type CreditAssigner, type CreditSample } from "./credit-assigner.js";

/**
 * REINFORCE leave-one-out: each sample's baseline is the mean reward of the
 * other members of its group, `r_i − (Σ_j r_j − r_i)/(n − 1)`. A group of one
 * has no other member and gets advantage 0.
 */
export class RlooAdvantage implements CreditAssigner {
  readonly name = "rloo";

  assign(samples: readonly CreditSample[]): number[] {
    const advantages = new Array<number>(samples.length).fill(0);
    for (const members of groupSamples(samples)) {
      if (members.length < 2) continue;
      const total = members.reduce((sum, index) => sum + (samples[index] as CreditSample).reward, 0);
      for (const index of members) {
        const reward = (samples[index] as CreditSample).reward;
        advantages[index] = reward - (total - reward) / (members.length - 1);
      }
    }
    return advantages;
  }
}
