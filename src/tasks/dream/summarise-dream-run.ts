import { z } from "zod";

/** What the run summary reads of a step line of metrics.jsonl: dreamStepSummary's counts. */
const DreamStepLineSchema = z.object({
  environment: z.object({
    attempts: z.number().int().min(0),
    graded: z.number().int().min(0),
    passed: z.number().int().min(0),
    ungradable: z.number().int().min(0),
    failed: z.number().int().min(0),
  }),
});

/** report.json's `dream`: the run's training attempts, summed over its steps. */
export interface DreamRunSummary {
  /** Step lines read (evaluation lines and other environments' lines are passed over). */
  steps: number;
  /** Attempts made: one solver completion each. */
  attempts: number;
  /** Attempts the sandbox graded (setup, solution, validator run). */
  graded: number;
  /** Graded attempts whose output the validator passed. */
  passed: number;
  /** passed / graded (0 when none was graded). */
  passRate: number;
  /** Attempts at a challenge that could not grade (its setup failed, or its validator crashed on its own): left out. */
  ungradable: number;
  /** Attempts whose rollout failed otherwise. */
  failed: number;
}

/**
 * The `dream` environment's reading of a run's metrics.jsonl (its
 * `summariseRun`, in report.json): the step lines' counts summed, so the pass
 * rate is over every graded attempt of the run, not a mean of steps.
 */
export function summariseDreamRun(metricLines: readonly Record<string, unknown>[]): { dream: DreamRunSummary } {
  const lines = metricLines.flatMap((line) => {
    const parsed = DreamStepLineSchema.safeParse(line);
    return parsed.success ? [parsed.data.environment] : [];
  });
  const total = (pick: (line: (typeof lines)[number]) => number) => lines.reduce((sum, line) => sum + pick(line), 0);
  const graded = total((line) => line.graded);
  const passed = total((line) => line.passed);
  return {
    dream: {
      steps: lines.length,
      attempts: total((line) => line.attempts),
      graded,
      passed,
      passRate: graded === 0 ? 0 : passed / graded,
      ungradable: total((line) => line.ungradable),
      failed: total((line) => line.failed),
    },
  };
}
