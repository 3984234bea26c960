import { z } from "zod";
import { OscillationPatternSchema } from "./detect-oscillation.js";
import { DialecticRoundSchema } from "./dialectic-round.js";

/** How a loop ended: the specification's terminal states. */
export const DialecticStateSchema = z.enum(["converged", "oscillating", "stalled", "max_rounds"]);
export type DialecticState = z.infer<typeof DialecticStateSchema>;

/** Everything a finished loop produced; the episode's `rollout.artifacts` hold it. */
export const DialecticOutcomeSchema = z.object({
  state: DialecticStateSchema,
  /** The most recent oscillation pattern detected (the one that ended an `oscillating` run), or null if none was. */
  pattern: OscillationPatternSchema.nullable(),
  rounds: z.array(DialecticRoundSchema).min(1),
  /** The proposal returned: the latest, or the best so far where the adaptive engine gives up. */
  finalOutput: z.string(),
  /** The critique score of `finalOutput`. */
  finalScore: z.number().min(0).max(1),
  /** The round `finalOutput` comes from. */
  finalRound: z.number().int().min(1),
});
export type DialecticOutcome = z.infer<typeof DialecticOutcomeSchema>;
