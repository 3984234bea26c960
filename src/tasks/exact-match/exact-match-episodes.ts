import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { AnswerFormatSchema, ExactMatchEpisode } from "./exact-match-episode.js";

/** The episode options, JSON because pool workers get a copy. */
export const ExactMatchEpisodesOptionsSchema = z.strictObject({ maxTokens: z.number().int().min(1), answerFormat: AnswerFormatSchema });
export type ExactMatchEpisodesOptions = z.infer<typeof ExactMatchEpisodesOptionsSchema>;

/** The episode-module factory of the `exact-match` environment. */
export function createExactMatchEpisodes(options?: JsonValue): Episode[] {
  return [new ExactMatchEpisode(parseInput(ExactMatchEpisodesOptionsSchema, options ?? {}))];
}

/** This module as an episode module (its compiled JavaScript), with the factory's options. */
export function exactMatchEpisodeModule(options: ExactMatchEpisodesOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createExactMatchEpisodes", options };
}
