import type { GenerateResult } from "../../core/schemas/generate-result.js";

/** The roles that have Steps in these result trees, in order of first appearance. */
export function rolesWithSteps(results: readonly GenerateResult[]): string[] {
  const roles = new Set<string>();
  const visit = (result: GenerateResult) => {
    for (const step of result.rollout.steps) roles.add(step.roleId);
    for (const child of result.children) visit(child);
  };
  for (const result of results) visit(result);
  return [...roles];
}
