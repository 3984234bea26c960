import type { CreditSample } from "../core/credit/credit-assigner.js";

/** A role's reward in a rollout and the advantage credit assignment derived from it. */
export interface CreditAssignment extends CreditSample {
  advantage: number;
}

export function creditKey(rolloutId: string, roleId: string): string {
  return `${rolloutId}\u0000${roleId}`;
}
