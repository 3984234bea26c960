import { z } from "zod";
import type { TrainingRunSummariser } from "../../training/reports/read-training-run.js";

/** What the summary needs of a step line of metrics.jsonl. */
export const GapStepLineSchema = z.object({ step: z.number().int().min(1), solveRate: z.number(), passRateGap: z.number(), validProposals: z.number() });
export type GapStepLine = z.infer<typeof GapStepLineSchema>;

/** The proposer's distance from its target over one window of steps. */
export interface GapWindow {
  steps: number;
  /** Mean of the steps' solve rates on valid proposals. */
  passRate: number;
  /** |passRate − target|: how far the window's problems were, together, from the target difficulty. */
  gap: number;
  /** Mean over the window's steps of each step's mean |problem pass rate − target|. */
  perProblemGap: number;
}

export interface ProposerTargetGap {
  target: number;
  first: GapWindow;
  last: GapWindow;
  /** first.gap − last.gap: positive when the proposer's problems came closer to the target. */
  gapReduction: number;
  perProblemGapReduction: number;
}

/**
 * The proposer's |pass rate − target| over the first and the last 10% of
 * steps that had a valid proposal (at least one step each; null when no
 * step had one). Two measures, since they answer different
 * questions: `gap` treats the window's problems as one pool (is the
 * curriculum at the target difficulty?); `perProblemGap` averages each
 * problem's own distance, which keeps a floor of ≈ 0.14 at 8 solvers even
 * for problems exactly at the target (binomial spread of k/8 around p = 0.5),
 * and grows when the solver's per-problem pass rates go to 0 or 1.
 */
export function proposerTargetGap(lines: readonly GapStepLine[], target: number): ProposerTargetGap | null {
  // A step without a valid proposal has no pass rate (its solveRate reads 0).
  const ordered = lines.filter((line) => line.validProposals > 0).sort((a, b) => a.step - b.step);
  if (ordered.length === 0) return null;
  const size = Math.max(1, Math.ceil(ordered.length / 10));
  const first = gapWindow(ordered.slice(0, size), target);
  const last = gapWindow(ordered.slice(ordered.length - size), target);
  return { target, first, last, gapReduction: first.gap - last.gap, perProblemGapReduction: first.perProblemGap - last.perProblemGap };
}

function gapWindow(lines: readonly GapStepLine[], target: number): GapWindow {
  const passRate = mean(lines.map((line) => line.solveRate));
  return { steps: lines.length, passRate, gap: Math.abs(passRate - target), perProblemGap: mean(lines.map((line) => line.passRateGap)) };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * `proposerTargetGap` of a run's metrics.jsonl lines: the step lines whose
 * environment summary has a solve rate, a pass-rate gap and valid proposals
 * (the arithmetic environment's; evaluation lines and other environments' are passed over).
 */
export function proposerTargetGapOfMetrics(records: readonly unknown[], target: number): ProposerTargetGap | null {
  const lines = records.flatMap((record) => {
    const { step, environment } = (record ?? {}) as { step?: unknown; environment?: unknown };
    const line = GapStepLineSchema.safeParse(typeof environment === "object" && environment !== null ? { step, ...environment } : record);
    return line.success ? [line.data] : [];
  });
  return proposerTargetGap(lines, target);
}

/** A run's proposer target gap, against the `targetPassRate` its environment options set (default 0.5): the arithmetic task's summary of a run. */
export const summariseProposerTargetGap: TrainingRunSummariser = (metricLines, environmentOptions) => {
  const target = (environmentOptions as { targetPassRate?: unknown } | null)?.targetPassRate;
  return { proposerTargetGap: proposerTargetGapOfMetrics(metricLines, typeof target === "number" ? target : 0.5) };
};
