import { Arena } from "../../arena/arena.js";
import type { InferenceClient } from "../../core/inference-client.js";
import { createRiddleEpisodes } from "./riddle-episodes.js";
import { RIDDLE_EPISODE_TYPE } from "../../riddles/episode/riddle-episode.js";
import type { RiddleArtifact } from "../../riddles/riddle-artifact.js";
import type { RiddleConfig } from "../../riddles/riddle-config.js";
import type { EnvironmentEvaluation } from "../../environments/environment.js";
import { riddlesStepSummary } from "./riddles-step-summary.js";

export interface EvaluateRiddlesOptions {
  config: RiddleConfig;
  /** Riddle episodes played. */
  episodes: number;
  /** The arena seed they are played from (one training never draws). */
  seed: number;
  /** The riddler's sampling temperature (as in training: the band share is a property of the sampled policy). */
  temperature: number;
  /** Top-level episodes at once. Default 8. */
  concurrency?: number;
}

/**
 * The riddler's band share at the current weights: `episodes` riddle
 * episodes from a held-out seed, each from a fresh curriculum state (no
 * recent riddles, so no duplicate penalty), sampled as in training; the
 * share of the valid riddles whose measured solve rate lies in the band.
 * `n` is the number of valid riddles (the share's denominator).
 */
export async function evaluateRiddles(client: InferenceClient, options: EvaluateRiddlesOptions): Promise<EnvironmentEvaluation> {
  const arena = new Arena({ client, seed: options.seed, concurrency: options.concurrency ?? 8, samplerDefaults: { temperature: options.temperature } });
  try {
    for (const episode of createRiddleEpisodes(options.config)) arena.register(episode);
    const requests = Array.from({ length: options.episodes }, (_, episodeIndex) => {
      const artifact: RiddleArtifact = { episodeIndex, riddlerMemory: "", actorMemory: "", recentRiddles: [] };
      return { episodeType: RIDDLE_EPISODE_TYPE, artifact };
    });
    const summary = riddlesStepSummary(await arena.generateRollouts(requests), options.config);
    return { heldOutAccuracy: summary.bandShare ?? 0, n: summary.validRiddles ?? 0 };
  } finally {
    await arena.close();
  }
}
