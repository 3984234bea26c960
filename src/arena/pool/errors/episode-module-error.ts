import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A RolloutPool's episode module cannot be used: it does not load, its export
 * is not a factory of episodes, or it lacks an episode type the arena runs.
 */
export class EpisodeModuleError extends SelfplayError {
  override readonly name = "EpisodeModuleError";
  constructor(
    /** The module as given in `pool.episodes.module`. */
    readonly module: string,
    readonly problem: string,
  ) {
    super(`episode module ${module}: ${problem}`);
  }
}
