import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { DebateEpisode, DebateEpisodeOptionsSchema, type DebateEpisodeOptions } from "./debate-episode.js";

/** The debate episode, as an episode-module factory of its JSON options: RolloutPool workers call it, and so does the main thread. */
export function createDebateEpisodes(options?: JsonValue): Episode[] {
  return [new DebateEpisode(parseInput(DebateEpisodeOptionsSchema, options ?? {}, { fieldName: (path) => `episodes.options.${path.map(String).join(".")}` }))];
}

/** This module as a RolloutPool episode module (its compiled JavaScript), with the episode's options. */
export function debateEpisodeModule(options?: DebateEpisodeOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createDebateEpisodes", ...(options && { options }) };
}
