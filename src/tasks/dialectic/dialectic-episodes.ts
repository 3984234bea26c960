import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { LogitBiasSchema } from "../../core/schemas/constraint.js";
import { DEFAULT_CRITIC_SAMPLER } from "../../dialectic/critic.js";
import { DialecticEpisode } from "../../dialectic/dialectic-episode.js";
import { DialecticSettingsSchema } from "../../dialectic/dialectic-settings.js";
import { StandardCritic } from "../../dialectic/standard-critic.js";

/** The JSON options of the `dialectic` environment's episode: what its pool workers are told. */
export const DialecticEpisodesOptionsSchema = z.strictObject({
  /** How the proposer/critic loop runs and stops (every field has the loop's default). */
  loop: DialecticSettingsSchema.prefault({}),
  /** Tokens per proposal. Default 256. */
  proposerMaxTokens: z.number().int().min(1).default(256),
  /** Weight of the score's rise over the first round in the proposer's reward. Default 0.5. */
  improvementWeight: z.number().min(0).default(0.5),
  /** Tokens per critique (a critique at the schema's bounds is about 900 bytes). Default 1024. */
  criticMaxTokens: z.number().int().min(1).default(DEFAULT_CRITIC_SAMPLER.maxTokens ?? 1024),
  /** Steers the constrained critic, e.g. `{"\"": 4}` closes its strings early on a small model. Default none. */
  criticLogitBias: LogitBiasSchema.optional(),
});
export type DialecticEpisodesOptions = z.input<typeof DialecticEpisodesOptionsSchema>;

/** The dialectic episode (a trainable proposer, one StandardCritic as its judge) from its JSON options; RolloutPool workers call it too. */
export function createDialecticEpisodes(options?: JsonValue): Episode[] {
  const parsed = parseInput(DialecticEpisodesOptionsSchema, options ?? {}, { fieldName: (path) => `episodes.options.${path.map(String).join(".")}` });
  const critic = new StandardCritic({ sampler: { maxTokens: parsed.criticMaxTokens }, ...(parsed.criticLogitBias && { logitBias: parsed.criticLogitBias }) });
  return [new DialecticEpisode({ ...parsed.loop, proposerMaxTokens: parsed.proposerMaxTokens, improvementWeight: parsed.improvementWeight, critics: [critic] })];
}

/** This module as a RolloutPool episode module (its compiled JavaScript), with the episode's options. */
export function dialecticEpisodeModule(options: DialecticEpisodesOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createDialecticEpisodes", options };
}
