import { z } from "zod";
import { SamplerOverridesSchema } from "./sampler-settings.js";

/**
 * A trainable entity: only the completions of Roles become Steps and reach a
 * TrainingBatch. A judge is never a Role. `trainable: false` marks a frozen
 * opponent whose Steps are recorded for analysis but never trained on.
 */
export const RoleSchema = z.object({
  id: z.string().min(1).regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, '_', '.', '-'"),
  systemPrompt: z.string().default(""),
  sampler: SamplerOverridesSchema.default({}),
  trainable: z.boolean().default(true),
});
export type Role = z.infer<typeof RoleSchema>;
export type RoleInput = z.input<typeof RoleSchema>;
