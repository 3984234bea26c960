import { z } from "zod";
import type { PassRateWindowSettings } from "./pass-rate-window-settings.js";

/** One step's attempts at a cluster: how many, and how many succeeded. */
export const ClusterAttemptsSchema = z.object({
  attempts: z.number().min(0),
  /** Successes; fractional where an environment reports a mean rate over attempts. */
  successes: z.number().min(0),
});
export type ClusterAttempts = z.infer<typeof ClusterAttemptsSchema>;

/** The window of each cluster, oldest step first, as a checkpoint keeps it. */
export const ClusterPassRatesSnapshotSchema = z.record(z.string(), z.array(ClusterAttemptsSchema));
export type ClusterPassRatesSnapshot = z.infer<typeof ClusterPassRatesSnapshotSchema>;

/**
 * Each cluster's attempts over its last `window` played steps, and the
 * smoothed pass rate p̂ = (successes + prior · k) / (attempts + k) with k the
 * prior's pseudo-count: never 0 or 1, so a group's disagreement never vanishes outright
 * and the group size for p̂ stays finite.
 */
export class ClusterPassRates {
  private readonly windows = new Map<string, ClusterAttempts[]>();

  constructor(
    private readonly settings: PassRateWindowSettings,
    snapshot?: ClusterPassRatesSnapshot,
  ) {
    for (const [cluster, window] of Object.entries(snapshot ?? {})) this.windows.set(cluster, window.map((step) => ({ ...step })));
  }

  /** Adds a step's attempts at `cluster`, forgetting the step that falls out of the window. */
  record(cluster: string, step: ClusterAttempts): void {
    if (step.attempts === 0) return;
    const window = this.windows.get(cluster) ?? [];
    window.push({ attempts: step.attempts, successes: Math.min(step.successes, step.attempts) });
    if (window.length > this.settings.window) window.shift();
    this.windows.set(cluster, window);
  }

  /** Attempts at `cluster` in its window. */
  attempts(cluster: string): number {
    return (this.windows.get(cluster) ?? []).reduce((sum, step) => sum + step.attempts, 0);
  }

  /** The smoothed pass rate p̂ of `cluster`: the prior when it has not been played. */
  estimate(cluster: string): number {
    const window = this.windows.get(cluster) ?? [];
    const { priorPassRate, priorAttempts } = this.settings;
    const successes = window.reduce((sum, step) => sum + step.successes, 0);
    return (successes + priorPassRate * priorAttempts) / (this.attempts(cluster) + priorAttempts);
  }

  /**
   * Learning progress: |pass rate of the window's newer half − that of its
   * older half| (each half's successes over its attempts); 0 with fewer than
   * two steps. With an odd window the middle step goes to the newer half.
   */
  progress(cluster: string): number {
    const window = this.windows.get(cluster) ?? [];
    if (window.length < 2) return 0;
    const rate = (steps: readonly ClusterAttempts[]) => steps.reduce((sum, step) => sum + step.successes, 0) / steps.reduce((sum, step) => sum + step.attempts, 0);
    const middle = Math.floor(window.length / 2);
    return Math.abs(rate(window.slice(middle)) - rate(window.slice(0, middle)));
  }

  snapshot(): ClusterPassRatesSnapshot {
    return Object.fromEntries([...this.windows].map(([cluster, window]) => [cluster, window.map((step) => ({ ...step }))]));
  }
}
