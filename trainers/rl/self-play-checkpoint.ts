import { z } from "zod";
import { JsonObjectSchema } from "../../src/core/json.js";
import { RandomStreamStateSchema } from "../../src/core/random/random-stream.js";
import { SelfPlayConfigurationSchema } from "./self-play-configuration.js";

/** A file a checkpoint points at, with its size: a file of another size is not the one the checkpoint was taken with. */
const CheckpointFileSchema = z.object({
  /** Relative to the run folder, or absolute (the base model). */
  path: z.string().min(1),
  bytes: z.number().int().min(0),
});

/** A held-out evaluation of the run: greedy accuracy after `step` updates, and when it finished. */
export const SelfPlayEvaluationSchema = z.object({
  step: z.number().int().min(0),
  heldOutAccuracy: z.number(),
  /** Wall-clock seconds since the run started (resumes excluded). */
  elapsedSeconds: z.number().min(0).optional(),
});
export type SelfPlayEvaluation = z.infer<typeof SelfPlayEvaluationSchema>;

/**
 * `checkpoints/step-<k>.json` of a `selfplay train` run: everything step k + 1
 * starts from, so that a resumed run goes on exactly as the uninterrupted one.
 */
export const SelfPlayCheckpointSchema = z.object({
  /** Layout of this file; a reader refuses another. */
  version: z.literal(1),
  /** Steps done; 0 is the state before the first update, after the first evaluation. */
  step: z.number().int().min(0),
  /** The base model the run started from, absolute. */
  modelPath: z.string().min(1),
  configuration: SelfPlayConfigurationSchema,
  /** The policy after `step`: the `policies/policy-v<step>.gguf` the sync wrote (no copy), the base model at step 0. */
  weights: CheckpointFileSchema,
  /** AdamW's step count and moments (`step-<k>.optimizer.gguf`); null before the first update. */
  optimizer: CheckpointFileSchema.nullable(),
  /** `Arena.snapshot()`: episode and batch counters (which seed every rollout), credit baselines, artifact stores. */
  arena: JsonObjectSchema,
  /** The generator that orders minibatches, where step k + 1 takes it up. */
  minibatchRandom: RandomStreamStateSchema,
  /** Bytes of metrics.jsonl at the checkpoint: a resumed run cuts what the killed one wrote after it. */
  metricsBytes: z.number().int().min(0),
  /** Bytes of rollouts.jsonl at the checkpoint, cut back the same way (0 in checkpoints that predate the file). */
  rolloutsBytes: z.number().int().min(0).default(0),
  /** The frontier's state (`ProposalTargets.snapshot()`: tracker, trajectory counts, latest tasks); null in uniform mode. */
  frontier: JsonObjectSchema.nullable().default(null),
  /** Held-out evaluations so far, for the run's report. */
  evaluations: z.array(SelfPlayEvaluationSchema),
  /** Wall-clock seconds the run had spent at the checkpoint, carried across a resume (0 in checkpoints that predate it). */
  elapsedSeconds: z.number().min(0).default(0),
});
export type SelfPlayCheckpoint = z.infer<typeof SelfPlayCheckpointSchema>;
