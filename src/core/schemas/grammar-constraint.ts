import { z } from "zod";
import { LogitBiasSchema } from "./constraint.js";

/**
 * A constraint as the engine sampled under it: the GBNF text llama.cpp's
 * grammar sampler ran (a JSON schema already compiled to it) and the logit
 * bias added before the mask. Enough for a trainer to rebuild the mask.
 */
export const GrammarConstraintSchema = z.object({
  /** GBNF grammar text, exactly as the engine received it. */
  gbnf: z.string().min(1),
  /** The grammar's start rule. Default "root" (what the engine uses). */
  root: z.string().min(1).optional(),
  /** Added to the logit of each token (keyed by its text, one token each) before the grammar mask and the temperature. */
  logitBias: LogitBiasSchema.optional(),
});
export type GrammarConstraint = z.infer<typeof GrammarConstraintSchema>;
