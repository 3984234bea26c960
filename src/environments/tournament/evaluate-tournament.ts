import { Arena } from "../../arena/arena.js";
import type { InferenceClient } from "../../core/inference-client.js";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { TournamentEpisode, type TournamentEpisodeOptions } from "../../tournament/episode/tournament-episode.js";
import type { EnvironmentEvaluation } from "../environment.js";

export interface EvaluateTournamentOptions {
  /** The constitution YAML. */
  kernel: string;
  episode: TournamentEpisodeOptions;
  /** The world seeds played, one episode each (seeds training never draws). */
  seeds: readonly number[];
}

/**
 * Greedy play on held-out world seeds: the share of episodes in which every
 * LLM citizen's every action was valid and legal (no refusal by the gate,
 * no invalid output). The outcome itself is left to the step summaries: a
 * greedy policy's outcome on a few seeds says little.
 */
export async function evaluateTournament(client: InferenceClient, options: EvaluateTournamentOptions): Promise<EnvironmentEvaluation> {
  const arena = new Arena({ client, seed: 0, samplerDefaults: { temperature: 0 } });
  arena.register(new TournamentEpisode(await loadKernel(options.kernel), options.episode));
  const results = await arena.generateRollouts(options.seeds.map((seed) => ({ episodeType: "tournament", artifact: { seed } })));
  const legal = results.filter((result) => {
    if (result.outcome.status !== "scored") return false;
    const citizens = Object.values(result.rollout.artifacts.citizens as Record<string, { rejected: number; invalid: number }>);
    return citizens.every((citizen) => citizen.rejected === 0 && citizen.invalid === 0);
  }).length;
  return { accuracy: legal / Math.max(results.length, 1), n: results.length };
}
