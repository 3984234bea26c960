import type { GenerateResult } from "../../core/schemas/generate-result.js";

/** Mean reward per role over scored rollouts, sub-episodes included, and the counts of scored, failed and dropped ones. */
export function roleRewards(results: readonly GenerateResult[]): { rewards: Record<string, number>; scored: number; failed: number; dropped: number } {
  const sums = new Map<string, { total: number; count: number }>();
  let scored = 0;
  let failed = 0;
  let dropped = 0;
  const visit = (result: GenerateResult) => {
    if (result.outcome.status === "scored") {
      scored++;
      for (const [role, reward] of Object.entries(result.rewards)) {
        const entry = sums.get(role) ?? { total: 0, count: 0 };
        entry.total += reward;
        entry.count++;
        sums.set(role, entry);
      }
    } else if (result.outcome.status === "failed") failed++;
    else dropped++;
    result.children.forEach(visit);
  };
  results.forEach(visit);
  const rewards = Object.fromEntries([...sums].sort(([a], [b]) => a.localeCompare(b)).map(([role, { total, count }]) => [role, total / count]));
  return { rewards, scored, failed, dropped };
}
