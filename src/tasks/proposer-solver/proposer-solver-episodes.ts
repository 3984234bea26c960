import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import { ProposerEpisode } from "./proposer-episode.js";
import { SolverEpisode } from "./solver-episode.js";

/**
 * The episodes of `selfplay run proposer-solver`, as an episode-module
 * factory: the proposer and the solver its sub-episodes run (a worker runs
 * them itself, so the module gives both).
 */
export function createProposerSolverEpisodes(): Episode[] {
  return [new ProposerEpisode(), new SolverEpisode()];
}

/** This module as a RolloutPool episode module (its compiled JavaScript). */
export function proposerSolverEpisodeModule(): EpisodeModule {
  return { module: compiledModuleUrl(import.meta.url), exportName: "createProposerSolverEpisodes" };
}
