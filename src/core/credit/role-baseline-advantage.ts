import { z } from "zod";
import { InvalidInputError } from "../errors/index.js";
import type { JsonValue } from "../json.js";
import type { CreditAssigner, CreditSample } from "./credit-assigner.js";

export interface RoleBaselineAdvantageOptions {
  /** Weight of the old baseline in each update, in [0, 1). Default 0.95 (SPIRAL's α). */
  decay?: number;
}

const BaselinesSchema = z.record(z.string(), z.number());

/**
 * SPIRAL's role-conditioned advantage for one policy playing several roles:
 * each role keeps an exponential moving average of its own rewards, and a
 * sample's advantage is `r − b_role`. The baselines used for a batch are those
 * from before it (so the result does not depend on sample order); after the
 * batch, `b ← decay·b + (1 − decay)·mean(batch rewards of the role)`. A role's
 * first batch starts its baseline at that batch's mean.
 */
export class RoleBaselineAdvantage implements CreditAssigner {
  readonly name = "role-baseline";
  private readonly decay: number;
  private baselines = new Map<string, number>();

  constructor(options: RoleBaselineAdvantageOptions = {}) {
    this.decay = options.decay ?? 0.95;
    if (!(this.decay >= 0 && this.decay < 1)) throw new InvalidInputError("decay", "a number in [0, 1)", this.decay);
  }

  assign(samples: readonly CreditSample[]): number[] {
    const rewardsByRole = new Map<string, number[]>();
    for (const sample of samples) {
      const rewards = rewardsByRole.get(sample.roleId) ?? [];
      rewards.push(sample.reward);
      rewardsByRole.set(sample.roleId, rewards);
    }
    const batchMeans = new Map(
      [...rewardsByRole].map(([roleId, rewards]) => [roleId, rewards.reduce((a, b) => a + b, 0) / rewards.length]),
    );
    const advantages = samples.map(
      (sample) => sample.reward - (this.baselines.get(sample.roleId) ?? (batchMeans.get(sample.roleId) as number)),
    );
    for (const [roleId, mean] of batchMeans) {
      const previous = this.baselines.get(roleId);
      this.baselines.set(roleId, previous === undefined ? mean : this.decay * previous + (1 - this.decay) * mean);
    }
    return advantages;
  }

  /** The current baseline of a role, or undefined before its first batch. */
  baseline(roleId: string): number | undefined {
    return this.baselines.get(roleId);
  }

  snapshot(): JsonValue {
    return Object.fromEntries(this.baselines);
  }

  restore(state: JsonValue): void {
    this.baselines = new Map(Object.entries(BaselinesSchema.parse(state)));
  }
}
