import { availableParallelism } from "node:os";
import { InvalidInputError } from "../../core/errors/index.js";
import type { TrainerBackend } from "./trainer-checkpoint.js";

/**
 * CPU threads of a trainer's update: `configured`, else every core of this
 * machine. Every core, not the cores the rollouts leave: `train()` runs a
 * step's phases one after another (rollouts, then credit, then the update,
 * then the sync), so while the update runs no rollout does — the engines'
 * decode loops wait on a condition variable and pool workers wait for the next
 * step's episodes, per-worker engines included. Should rollouts ever overlap
 * the update, this is where the update gives up the cores they use.
 */
export function updateThreads(configured: number | undefined, cores: number = availableParallelism()): number {
  return configured ?? cores;
}

/**
 * Refuses a thread count for a backend that takes none: the tfjs trainer's
 * wasm backend sets its own, so a `threads` given for it would be ignored
 * (a silent fallback). `field` names the setting as the user gave it.
 */
export function assertBackendTakesThreads(backend: TrainerBackend, threads: number | undefined, field: string): void {
  if (backend === "tfjs" && threads !== undefined) {
    throw new InvalidInputError(field, "no thread count with the tfjs trainer (its wasm backend sets its own): leave it out, or train with --trainer ggml", threads);
  }
}
