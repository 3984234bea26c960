import type { JsonValue } from "../json.js";
import { groupSamples, type CreditAssigner, type CreditSample } from "./credit-assigner.js";
import { GrpoAdvantage } from "./grpo-advantage.js";
import { RoleBaselineAdvantage } from "./role-baseline-advantage.js";

export interface RoleAwareCreditOptions {
  /** For samples whose group has several members (e.g. N solvers of one question). Default GRPO. */
  grouped?: CreditAssigner;
  /** For samples alone in their group (e.g. a proposer). Default a per-role EMA baseline. */
  singleton?: CreditAssigner;
}

/**
 * The arena's default: groups of two or more are compared within the group;
 * samples alone in their group (a proposer writes one question) are compared
 * with their role's running baseline, since a group of one has no peers.
 */
export class RoleAwareCredit implements CreditAssigner {
  readonly name: string;
  private readonly grouped: CreditAssigner;
  private readonly singleton: CreditAssigner;

  constructor(options: RoleAwareCreditOptions = {}) {
    this.grouped = options.grouped ?? new GrpoAdvantage();
    this.singleton = options.singleton ?? new RoleBaselineAdvantage();
    this.name = `role-aware(${this.grouped.name}|${this.singleton.name})`;
  }

  assign(samples: readonly CreditSample[]): number[] {
    const groupedIndices: number[] = [];
    const singletonIndices: number[] = [];
    for (const members of groupSamples(samples)) {
      (members.length > 1 ? groupedIndices : singletonIndices).push(...members);
    }
    const advantages = new Array<number>(samples.length).fill(0);
    const assignSubset = (assigner: CreditAssigner, indices: number[]) => {
      if (indices.length === 0) return;
      const subset = assigner.assign(indices.map((index) => samples[index] as CreditSample));
      indices.forEach((index, position) => (advantages[index] = subset[position] as number));
    };
    assignSubset(this.grouped, groupedIndices.sort((a, b) => a - b));
    assignSubset(this.singleton, singletonIndices.sort((a, b) => a - b));
    return advantages;
  }

  snapshot(): JsonValue {
    return { grouped: this.grouped.snapshot?.() ?? null, singleton: this.singleton.snapshot?.() ?? null };
  }

  restore(state: JsonValue): void {
    const parts = state as { grouped: JsonValue; singleton: JsonValue };
    if (parts.grouped !== null) this.grouped.restore?.(parts.grouped);
    if (parts.singleton !== null) this.singleton.restore?.(parts.singleton);
  }
}
