import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import { DebateEpisode } from "./debate-episode.js";

/** The episodes of `selfplay run debate`, as an episode-module factory: RolloutPool workers call it, and so does the main thread. */
export function createDebateEpisodes(): Episode[] {
  return [new DebateEpisode()];
}

/** This module as a RolloutPool episode module (its compiled JavaScript). */
export function debateEpisodeModule(): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createDebateEpisodes" };
}
