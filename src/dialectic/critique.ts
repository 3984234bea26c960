import { z } from "zod";

/**
 * A critic's verdict on one proposal. Lengths are bounded so that any output
 * constrained to this schema's JSON grammar is finite, even a random
 * byte-level model's; plain-text critics are cut to these bounds by `parseCritique`.
 */
export const CritiqueSchema = z.object({
  approved: z.boolean(),
  score: z.number().min(0).max(1),
  feedback: z.string().max(200),
  issues: z.array(z.string().max(80)).max(4),
  suggestions: z.array(z.string().max(80)).max(4),
});
export type Critique = z.infer<typeof CritiqueSchema>;

/** The bounds of CritiqueSchema, for code that fits free text into it (keep equal to the schema's). */
export const CRITIQUE_LIMITS = {
  /** Characters of `feedback`. */
  feedback: 200,
  /** Characters of one issue or suggestion. */
  item: 80,
  /** Entries of `issues` and of `suggestions`. */
  items: 4,
} as const;
