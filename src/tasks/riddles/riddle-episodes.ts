import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { createRiddleDomain, type RiddleDomainOptions } from "./create-riddle-domain.js";
import type { RiddleDomain } from "../../riddles/domains/riddle-domain.js";
import { parseRiddleConfig, type RiddleConfig, type RiddleConfigInput } from "../../riddles/riddle-config.js";
import type { RiddleEpisodeHooks } from "../../riddles/riddle-episode-hooks.js";
import { RiddleEpisode } from "../../riddles/episode/riddle-episode.js";
import { RiddleSolveEpisode } from "../../riddles/episode/riddle-solve-episode.js";

export interface RiddleEpisodesOptions {
  /** Observers of the running episode (in-process only: a pool worker cannot receive functions). */
  hooks?: RiddleEpisodeHooks;
  /** A domain instance instead of the one the config names (a test's, say). */
  domain?: RiddleDomain;
  /** Options of the domain the config names (the arithmetic grammar, bounds …); `freeForm` over the config's `freeForm`. */
  domainOptions?: RiddleDomainOptions;
}

/**
 * The riddle episodes: `riddle` and the `riddle-solve` sub-episode its
 * solvers run as. `config` is a RiddleConfig or its JSON input (validated
 * strictly), so this is also the episode module's factory for pool workers.
 */
export function createRiddleEpisodes(config: RiddleConfig | RiddleConfigInput | JsonValue | undefined = {}, options: RiddleEpisodesOptions = {}): Episode[] {
  const parsed = parseRiddleConfig(config ?? {});
  const freeForm = { ...parsed.freeForm, ...options.domainOptions?.freeForm };
  const domain = options.domain ?? createRiddleDomain(parsed.domain, { ...options.domainOptions, freeForm });
  return [new RiddleEpisode(parsed, domain, options.hooks), new RiddleSolveEpisode(domain)];
}

/** This module as a RolloutPool episode module (its compiled JavaScript); the config travels as the factory's JSON options. */
export function riddleEpisodeModule(config: RiddleConfigInput = {}): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createRiddleEpisodes", options: config as JsonValue };
}
