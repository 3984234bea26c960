import { groupSamples, type CreditAssigner, type CreditSample } from "./credit-assigner.js";

export interface GrpoAdvantageOptions {
  /**
   * Divide by the group's standard deviation (GRPO). `false` gives Dr. GRPO's
   * unbiased `r − mean`. Default true.
   */
  scaleByStd?: boolean;
  /** Added to the standard deviation so uniform groups do not divide by 0. Default 1e-4 (as TRL). */
  epsilon?: number;
}

/**
 * Group-normalised advantages: `(r − mean) / (std + ε)` within each group of
 * samples that answered the same prompt. The std is the sample (n − 1) standard
 * deviation, as TRL computes it; a group of one gets advantage 0.
 */
export class GrpoAdvantage implements CreditAssigner {
  readonly name: string;
  private readonly scaleByStd: boolean;
  private readonly epsilon: number;

  constructor(options: GrpoAdvantageOptions = {}) {
    this.scaleByStd = options.scaleByStd ?? true;
    this.epsilon = options.epsilon ?? 1e-4;
    this.name = this.scaleByStd ? "grpo" : "dr-grpo";
  }

  assign(samples: readonly CreditSample[]): number[] {
    const advantages = new Array<number>(samples.length).fill(0);
    for (const members of groupSamples(samples)) {
      const rewards = members.map((index) => (samples[index] as CreditSample).reward);
      const mean = rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length;
      const variance =
        rewards.length > 1 ? rewards.reduce((sum, reward) => sum + (reward - mean) ** 2, 0) / (rewards.length - 1) : 0;
      const scale = this.scaleByStd ? Math.sqrt(variance) + this.epsilon : 1;
      members.forEach((index, position) => {
        advantages[index] = ((rewards[position] as number) - mean) / scale;
      });
    }
    return advantages;
  }
}
