import { z } from "zod";
import { EpisodeModuleSchema } from "./episode-module.js";

/** How `ArenaOptions.pool` runs episodes in worker threads. */
export const RolloutPoolOptionsSchema = z
  .strictObject({
    /** Worker threads running episode protocols, environment steps and verifiers. 0 (default) runs them in this thread, as without a pool. */
    workers: z.number().int().min(0).max(256).default(0),
    /** Where workers get the episodes; required when `workers` > 0. */
    episodes: EpisodeModuleSchema.optional(),
    /**
     * Who serves the workers' model calls. "shared" (default): the arena's
     * client on this thread, one engine batching the sequences of every
     * worker's episodes. "per-worker": each worker opens its own engine; the
     * arena's client must then be a WorkerEngineClient, which says what to open
     * and carries its weight syncs to the workers.
     */
    engine: z.enum(["shared", "per-worker"]).default("shared"),
    /** Episodes one worker runs at once (they mostly wait on model calls). Default: the arena's `concurrency` ÷ `workers`, rounded up. */
    episodesPerWorker: z.number().int().min(1).optional(),
    /** Episodes waiting for a free slot beyond those running; more wait in `generateRollouts` (backpressure). Default: as many as run at once. */
    maxQueue: z.number().int().min(0).optional(),
    /**
     * Milliseconds an episode may run, time spent in model calls not counted.
     * Past it the worker is killed and replaced and the episode retried once
     * in a worker of its own; a second timeout records it as failed. Default 300000.
     */
    taskTimeoutMs: z.number().int().positive().default(300_000),
    /**
     * "per-worker" engines only: policy versions a worker's engine may lag
     * behind the latest `swapWeights` before it swaps (each Step records the
     * version that produced it). Default 0: every batch after a sync uses the new weights.
     */
    maxStaleness: z.number().int().min(0).default(0),
  })
  .refine((options) => options.workers === 0 || options.episodes !== undefined, {
    path: ["episodes"],
    message: "an episode module ({ module, exportName }) when workers > 0: workers import their episodes from it",
  });
export type RolloutPoolOptions = z.input<typeof RolloutPoolOptionsSchema>;
export type RolloutPoolSettings = z.output<typeof RolloutPoolOptionsSchema>;
