import type { Rollout } from "../schemas/rollout.js";

/** Text of the last completion `roleId` produced in the rollout, or undefined if it never spoke. */
export function lastCompletion(rollout: Rollout, roleId: string): string | undefined {
  const step = rollout.steps.findLast((candidate) => candidate.roleId === roleId);
  return step?.completion.map((message) => message.content).join("");
}
