import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { EpisodeModule } from "../../arena/pool/episode-module.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { DifficultyRewardSchema } from "../../core/rewards/difficulty-reward.js";
import { ArithmeticProposerEpisode } from "./arithmetic-proposer-episode.js";
import { ArithmeticSolverEpisode } from "./arithmetic-solver-episode.js";

/** The options of the arithmetic self-play episodes; JSON, because pool workers get a copy. */
export const ArithmeticSelfPlayOptionsSchema = z.strictObject({
  /** Solver sub-episodes per valid problem. Default 4. */
  solvers: z.number().int().min(1).optional(),
  /** The proposer's difficulty reward. Default Gaussian around 0.5, σ 0.2. */
  reward: DifficultyRewardSchema.optional(),
});
export type ArithmeticSelfPlayOptions = z.input<typeof ArithmeticSelfPlayOptionsSchema>;

/**
 * The arithmetic self-play of `selfplay train` and the pool benchmark, as an
 * episode-module factory: the proposer and the solver its sub-episodes run (a
 * worker runs them itself, so the module gives both).
 */
export function createArithmeticSelfPlayEpisodes(options?: JsonValue): Episode[] {
  const { solvers, reward } = parseInput(ArithmeticSelfPlayOptionsSchema, options ?? {});
  return [new ArithmeticProposerEpisode({ ...(solvers !== undefined && { solvers }), ...(reward && { reward }) }), new ArithmeticSolverEpisode()];
}

/** This module as a RolloutPool episode module (its compiled JavaScript), with the factory's options. */
export function arithmeticSelfPlayEpisodeModule(options: ArithmeticSelfPlayOptions = {}): EpisodeModule {
  const json = JSON.parse(JSON.stringify(parseInput(ArithmeticSelfPlayOptionsSchema, options))) as JsonValue;
  return { module: compiledModuleUrl(import.meta.url), exportName: "createArithmeticSelfPlayEpisodes", options: json };
}
