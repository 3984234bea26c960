import { z } from "zod";

/** How schema-bound calls went: how many, how many parsed on the first try, how many resamples it took. */
export const StructuredOutputStatsSchema = z.object({
  /** Schema-bound calls (each may take several attempts). */
  calls: z.number().int().min(0),
  /** Calls whose first attempt validated. */
  firstTryValid: z.number().int().min(0),
  /** Attempts after the first, over all calls. */
  resamples: z.number().int().min(0),
  /** Calls that used up their budget without a valid output. */
  failures: z.number().int().min(0),
});
export type StructuredOutputStats = z.infer<typeof StructuredOutputStatsSchema>;

/** Stats of a policy's Roles and of the judge, kept apart: only the first are trained on. */
export const StructuredOutputsSchema = z.object({
  role: StructuredOutputStatsSchema,
  judge: StructuredOutputStatsSchema,
});
export type StructuredOutputs = z.infer<typeof StructuredOutputsSchema>;

export function emptyStructuredOutputStats(): StructuredOutputStats {
  return { calls: 0, firstTryValid: 0, resamples: 0, failures: 0 };
}

export function emptyStructuredOutputs(): StructuredOutputs {
  return { role: emptyStructuredOutputStats(), judge: emptyStructuredOutputStats() };
}

/** Adds `source` into `target` in place. */
export function addStructuredOutputStats(target: StructuredOutputStats, source: StructuredOutputStats): void {
  target.calls += source.calls;
  target.firstTryValid += source.firstTryValid;
  target.resamples += source.resamples;
  target.failures += source.failures;
}
