import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { TicTacToeEpisode, TicTacToeEpisodeOptionsSchema, type TicTacToeEpisodeOptions } from "./tic-tac-toe-episode.js";

/** The tic-tac-toe episode, as an episode-module factory of its JSON options: RolloutPool workers call it, and so does the main thread. */
export function createTicTacToeEpisodes(options?: JsonValue): Episode[] {
  return [new TicTacToeEpisode(parseInput(TicTacToeEpisodeOptionsSchema, options ?? {}, { fieldName: (path) => `episodes.options.${path.map(String).join(".")}` }))];
}

/** This module as a RolloutPool episode module (its compiled JavaScript), with the episode's options. */
export function ticTacToeEpisodeModule(options?: TicTacToeEpisodeOptions): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createTicTacToeEpisodes", ...(options && { options }) };
}
