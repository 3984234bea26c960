import { Arena } from "../../arena/arena.js";
import { ArtifactStore } from "../../arena/artifact-store.js";
import { perWorkerThreads } from "../../arena/pool/per-worker-threads.js";
import { WorkerEngineClient } from "../../arena/pool/worker-engine-client.js";
import { walkResults } from "../../arena/walk-results.js";
import { arithmeticSelfPlayEpisodeModule, createArithmeticSelfPlayEpisodes } from "../../tasks/arithmetic/arithmetic-self-play-episodes.js";
import { clusterNames } from "../../tasks/arithmetic/arithmetic-task.js";
import { LlamaInferenceClientOptionsSchema } from "../../inference/llama/llama-client-options.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import type { PoolCell, PoolCellResult, PoolRound } from "./pool-bench-result.js";

export interface PoolCellOptions {
  cell: PoolCell;
  modelPath: string;
  /** Sequences of each engine. */
  sequences: number;
  /** Proposer episodes a round (also the arena's concurrency). */
  proposals: number;
  solvers: number;
  /** Timed rounds after one untimed warm-up. */
  rounds: number;
  /** Cores the per-worker engines split. */
  cores: number;
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * One pool setting on the RL step's own workload: arithmetic proposals, each
 * valid one answered by solver sub-episodes, on the real engine. Seed 1 in
 * every cell, so round k runs the same batch everywhere; the warm-up round
 * also starts the workers and loads their module and engines.
 */
export async function measurePoolCell(options: PoolCellOptions): Promise<PoolCellResult> {
  const { cell } = options;
  const perWorker = cell.engine === "per-worker";
  const engine = LlamaInferenceClientOptionsSchema.parse({
    modelPath: options.modelPath,
    sequences: options.sequences,
    ...(perWorker && { threads: perWorkerThreads(cell.workers, options.cores) }),
  });
  const client = perWorker ? await WorkerEngineClient.create(engine) : await LlamaInferenceClient.create(engine);
  const episodes = { solvers: options.solvers };
  try {
    const arena = new Arena({
      client,
      seed: 1,
      concurrency: options.proposals,
      ...(cell.workers > 0 && { pool: { workers: cell.workers, engine: cell.engine, episodes: arithmeticSelfPlayEpisodeModule(episodes) } }),
    });
    try {
      const store = ArtifactStore.of(clusterNames().map((cluster) => ({ cluster })));
      for (const episode of createArithmeticSelfPlayEpisodes(episodes)) arena.register(episode, episode.type === "arithmetic-propose" ? store : undefined);
      const round = async (): Promise<PoolRound> => {
        const requests = arena.getBatch([{ episodeType: "arithmetic-propose", count: options.proposals }]);
        const started = performance.now();
        const results = await arena.generateRollouts(requests);
        const seconds = (performance.now() - started) / 1000;
        const rollouts = [...walkResults(results)];
        const completionTokens = rollouts.reduce((sum, result) => sum + result.rollout.steps.reduce((steps, step) => steps + step.completionTokenIds.length, 0), 0);
        return { seconds, rollouts: rollouts.length, completionTokens, rolloutsPerSecond: rollouts.length / seconds, tokensPerSecond: completionTokens / seconds };
      };
      await round();
      const rounds: PoolRound[] = [];
      for (let index = 0; index < options.rounds; index++) rounds.push(await round());
      return {
        ...cell,
        // A per-worker engine's count is set above; a shared engine says its own default.
        threads: client instanceof LlamaInferenceClient ? client.settings.threads.threads : (engine.threads ?? 1),
        rolloutsPerSecond: median(rounds.map((entry) => entry.rolloutsPerSecond)),
        tokensPerSecond: median(rounds.map((entry) => entry.tokensPerSecond)),
        rounds,
      };
    } finally {
      await arena.close();
    }
  } finally {
    await client.dispose();
  }
}
