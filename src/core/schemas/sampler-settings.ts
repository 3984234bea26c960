import { z } from "zod";

/** Largest seed a sampler accepts: seeds are unsigned 32-bit, as llama.cpp's are. */
export const MAX_SEED = 0xffff_ffff;

export const SeedSchema = z.number().int().min(0).max(MAX_SEED);

/**
 * The complete sampler configuration of one model call. A Step records it in
 * full so that a trainer can recompute the distribution the tokens came from.
 */
export const SamplerSettingsSchema = z.object({
  /** Softmax temperature; 0 means greedy decoding. */
  temperature: z.number().min(0),
  /** Keep only the k most likely tokens; 0 disables the filter (required for true logprobs). */
  topK: z.number().int().min(0),
  /** Nucleus filter; 1 disables it (required for true logprobs). */
  topP: z.number().gt(0).max(1),
  /** Drop tokens below minP × the top probability; 0 disables it. */
  minP: z.number().min(0).max(1),
  /** Seed of this call's sampler, derived from (run seed, episode, role). */
  seed: SeedSchema,
  /** Upper bound on generated tokens. */
  maxTokens: z.number().int().positive(),
  /** Generation stops after any of these strings (they are kept out of the text). */
  stop: z.array(z.string().min(1)),
});
export type SamplerSettings = z.infer<typeof SamplerSettingsSchema>;

/** What a Role may set; the rest comes from the arena's defaults and the seed stream. */
export const SamplerOverridesSchema = SamplerSettingsSchema.omit({ seed: true }).partial();
export type SamplerOverrides = z.infer<typeof SamplerOverridesSchema>;

/** Training defaults: untruncated distribution, so the recorded logprob is the true one. */
export const DEFAULT_SAMPLER: Omit<SamplerSettings, "seed"> = {
  temperature: 1,
  topK: 0,
  topP: 1,
  minP: 0,
  maxTokens: 256,
  stop: [],
};
