import type { BatchMetrics } from "../arena/batch-metrics.js";

/** The one line `selfplay run` ends with. */
export function formatRunSummary(episodeName: string, metrics: readonly BatchMetrics[], outDir: string): string {
  const sum = (pick: (batch: BatchMetrics) => number) => metrics.reduce((total, batch) => total + pick(batch), 0);
  const failures = new Map<string, number>();
  const rewards = new Map<string, { sum: number; count: number }>();
  for (const batch of metrics) {
    for (const [name, count] of Object.entries(batch.failuresByError)) failures.set(name, (failures.get(name) ?? 0) + count);
    for (const [roleId, mean] of Object.entries(batch.meanReward)) {
      const count = batch.rewardCounts[roleId] ?? 0;
      const total = rewards.get(roleId) ?? { sum: 0, count: 0 };
      rewards.set(roleId, { sum: total.sum + mean * count, count: total.count + count });
    }
  }
  const failed = sum((batch) => batch.failed);
  const dropped = sum((batch) => batch.dropped);
  const failureText = failed === 0 ? "" : ` (${[...failures].map(([name, count]) => `${name}: ${count}`).join(", ")})`;
  const rewardText = [...rewards].map(([roleId, total]) => `${roleId} ${(total.sum / total.count).toFixed(3)}`).join(", ");
  return (
    `${episodeName}: ${sum((batch) => batch.episodes)} episodes, ${sum((batch) => batch.rollouts)} rollouts, ` +
    `${sum((batch) => batch.scored)} scored, ${failed} failed${failureText}${dropped > 0 ? `, ${dropped} dropped by the environment` : ""}; mean reward ${rewardText || "n/a"}; ` +
    `${sum((batch) => batch.trainingRecords)} training records, ${sum((batch) => batch.judgeCalls)} judge calls → ${outDir}\n`
  );
}
