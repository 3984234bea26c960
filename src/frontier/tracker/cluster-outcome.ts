import { z } from "zod";

/**
 * What one attempt at a cluster came to: a single challenge (rates 0 or 1) or
 * a batch of problems (for arithmetic, a batch's share of problems solved).
 */
export const ClusterOutcomeSchema = z
  .object({
    cluster: z.string().min(1, "a cluster name"),
    /** Share solved on the first attempt, in [0, 1]. */
    firstAttemptRate: z.number().min(0).max(1),
    /** Share solved by any attempt, in [0, 1]; at least `firstAttemptRate`. */
    successRate: z.number().min(0).max(1),
    /**
     * Identifies the challenge (e.g. a hash of its text). A hash seen among the
     * cluster's recent ones is a re-roll: it does not count as another run.
     */
    challengeHash: z.string().min(1).optional(),
  })
  .refine((outcome) => outcome.successRate >= outcome.firstAttemptRate, {
    message: "successRate must be at least firstAttemptRate (a first-attempt solve is a solve)",
    path: ["successRate"],
  });
export type ClusterOutcome = z.infer<typeof ClusterOutcomeSchema>;
