import { availableParallelism } from "node:os";

/**
 * CPU threads for each engine of `engine: "per-worker"` pools: the cores
 * split evenly among the workers' engines, at least 1 each (a shared engine
 * keeps LlamaInferenceClient's default).
 */
export function perWorkerThreads(workers: number, cores: number = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / Math.max(1, workers)));
}
