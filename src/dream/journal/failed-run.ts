import { z } from "zod";

const text = z.string().min(1);

/**
 * The challenge of a failed run, whole, so journal mining can hand it back
 * for a retry without the template or generator that made it.
 */
export const JournalChallengeSchema = z.strictObject({
  /** The challenge's hash (what the FrontierTracker deduplicates on). */
  hash: text,
  prompt: text,
  /** The setup program's source. */
  setup: text,
  /** The validator program's source. */
  validator: text,
  /** Where it came from: a template key, `journal` or `generated`. */
  source: text,
});
export type JournalChallenge = z.infer<typeof JournalChallengeSchema>;

/** One line of the journal: a challenge the solver did not pass. */
export const FailedRunSchema = z.strictObject({
  challenge: JournalChallengeSchema,
  /** The cluster it was played in, e.g. `regex-parse`. */
  cluster: text,
  /** A short summary of what went wrong (the last attempt's error, trimmed). */
  errorSummary: z.string(),
  /** Attempts made, all failed. */
  attempts: z.number().int().positive(),
  /** When it failed, ISO 8601 (from the cycle's injected clock). */
  failedAt: text,
});
export type FailedRun = z.infer<typeof FailedRunSchema>;
