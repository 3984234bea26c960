import type { CreditSample } from "../../src/core/credit/credit-assigner.js";

let counter = 0;

/** A CreditSample with a fresh rolloutId. */
export function creditSample(groupId: string, roleId: string, reward: number): CreditSample {
  counter += 1;
  return { rolloutId: `r${counter}`, roleId, groupId, reward };
}
