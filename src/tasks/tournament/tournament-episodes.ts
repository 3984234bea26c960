import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject, JsonValue } from "../../core/json.js";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { TournamentEpisode, type TournamentEpisodeOptions } from "../../tournament/episode/tournament-episode.js";

/** The episode module's options: the kernel's path and the episode's options, JSON because pool workers get a copy. */
export interface TournamentEpisodesOptions {
  kernel: string;
  episode: TournamentEpisodeOptions;
}

/** The episode-module factory of the `tournament` environment: loads the kernel, then the episode. */
export async function createTournamentEpisodes(options?: JsonValue): Promise<Episode[]> {
  const { kernel, episode } = (options ?? {}) as Partial<TournamentEpisodesOptions>;
  if (typeof kernel !== "string") throw new InvalidInputError("episodes.options.kernel", "the path of a constitution YAML file", kernel);
  return [new TournamentEpisode(await loadKernel(kernel), episode ?? {})];
}

/** This module as an episode module (its compiled JavaScript), with the factory's options. */
export function tournamentEpisodeModule(options: TournamentEpisodesOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createTournamentEpisodes", options: options as unknown as JsonObject };
}
