import { z } from "zod";

/** How a solver did on one challenge: whether it passed, and the attempts it used (all of them on a failure). */
export const SolveOutcomeSchema = z.strictObject({
  passed: z.boolean(),
  /** Attempts made, the passing one included; ≥ 1. */
  attemptsUsed: z.number().int().positive(),
});
export type SolveOutcome = z.infer<typeof SolveOutcomeSchema>;
