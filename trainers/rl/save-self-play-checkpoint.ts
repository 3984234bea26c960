import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import type { Arena } from "../../src/arena/arena.js";
import type { JsonObject } from "../../src/core/json.js";
import type { RandomStream } from "../../src/core/random/random-stream.js";
import { checkpointFilePath } from "../checkpoint/checkpoint-paths.js";
import { commitCheckpoint } from "../checkpoint/commit-checkpoint.js";
import { writeOptimizerState } from "../checkpoint/write-optimizer-state.js";
import type { AdamW } from "../optimizer/adamw.js";
import type { Policy } from "../policy/policy.js";
import type { SelfPlayCheckpoint, SelfPlayEvaluation } from "./self-play-checkpoint.js";
import type { SelfPlayConfiguration } from "./self-play-configuration.js";

export interface SaveSelfPlayCheckpointOptions {
  /** The run folder. */
  directory: string;
  /** Steps done. */
  step: number;
  /** The base model the run started from. */
  modelPath: string;
  configuration: SelfPlayConfiguration;
  /** The policy's weights after `step` as a GGUF already on disk: the sync's file, or the base model at step 0. */
  weightsPath: string;
  policy: Policy;
  optimizer: AdamW;
  arena: Arena;
  minibatchRandom: RandomStream;
  /** metrics.jsonl, every line of the step appended. */
  metricsPath: string;
  /** rollouts.jsonl, every rollout of the step appended. */
  rolloutsPath: string;
  /** The proposal targets' state (`ProposalTargets.snapshot()`). */
  frontier: JsonObject | null;
  evaluations: readonly SelfPlayEvaluation[];
  /** Wall-clock seconds of the run so far. */
  elapsedSeconds: number;
}

/**
 * Writes the checkpoint of step `step` (the optimizer state, then the
 * manifest that makes it the newest) and removes the older ones. The policy's
 * weights are not copied: the manifest points at the file the sync wrote.
 */
export async function saveSelfPlayCheckpoint(options: SaveSelfPlayCheckpointOptions): Promise<SelfPlayCheckpoint> {
  const { directory, step, optimizer } = options;
  let optimizerFile: SelfPlayCheckpoint["optimizer"] = null;
  if (optimizer.steps > 0) {
    const path = checkpointFilePath(directory, step, "optimizer.gguf");
    await writeOptimizerState(path, await optimizer.snapshot(), options.policy.variables);
    optimizerFile = await fileReference(directory, path);
  }
  const checkpoint: SelfPlayCheckpoint = {
    version: 1,
    step,
    modelPath: resolve(options.modelPath),
    configuration: options.configuration,
    weights: await fileReference(directory, options.weightsPath),
    optimizer: optimizerFile,
    arena: options.arena.snapshot() as JsonObject,
    minibatchRandom: options.minibatchRandom.state(),
    metricsBytes: (await stat(options.metricsPath)).size,
    rolloutsBytes: (await stat(options.rolloutsPath)).size,
    frontier: options.frontier,
    evaluations: [...options.evaluations],
    elapsedSeconds: options.elapsedSeconds,
  };
  // A JSON round trip drops the configuration's undefined fields, as reading the file back will.
  await commitCheckpoint(directory, step, JSON.parse(JSON.stringify(checkpoint)) as JsonObject);
  return checkpoint;
}

/** A file inside the run folder by its path relative to the folder (the folder can move); one outside it by its absolute path. */
async function fileReference(directory: string, path: string): Promise<{ path: string; bytes: number }> {
  const inside = relative(resolve(directory), resolve(path));
  const stored = inside.startsWith("..") || isAbsolute(inside) ? resolve(path) : inside;
  return { path: stored, bytes: (await stat(path)).size };
}
