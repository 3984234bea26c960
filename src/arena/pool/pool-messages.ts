import { MessagePort } from "node:worker_threads";
import { z } from "zod";
import { GenerationOutputSchema, GenerationRequestSchema, InferenceCapabilitiesSchema } from "../../core/inference-client.js";
import { EpisodeRequestSchema } from "../../core/schemas/episode-request.js";
import { FailureStageSchema } from "../../core/schemas/generate-result.js";
import { SamplerSettingsSchema, SeedSchema } from "../../core/schemas/sampler-settings.js";
import { LlamaInferenceClientOptionsSchema } from "../../inference/llama/llama-client-options.js";
import { EpisodeModuleSchema } from "./episode-module.js";

// What crosses between the pool (main thread) and its workers. Model outputs
// travel as structured clones with their typed arrays' buffers transferred.

/** The weights a worker's own engine must serve: the base file and the adapter over it, as of `policyVersion`. */
export const WorkerWeightsSchema = z.object({
  policyVersion: z.number().int().min(0),
  modelPath: z.string().min(1),
  loraPath: z.string().min(1).optional(),
});
export type WorkerWeights = z.infer<typeof WorkerWeightsSchema>;

/** Given to every worker when it starts. */
export const RolloutWorkerDataSchema = z.object({
  episodes: EpisodeModuleSchema,
  seed: SeedSchema,
  samplerDefaults: SamplerSettingsSchema.omit({ seed: true }),
  policyCapabilities: InferenceCapabilitiesSchema,
  judgeCapabilities: InferenceCapabilitiesSchema,
  /** The arena has no separate judge client (see EpisodeRuntime.judgeIsPolicy). */
  judgeIsPolicy: z.boolean(),
  engine: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("shared") }),
    z.object({
      kind: z.literal("per-worker"),
      options: LlamaInferenceClientOptionsSchema,
      /** One Int32: the latest policy version the main thread's client was told to serve. */
      versionCell: z.instanceof(SharedArrayBuffer),
      maxStaleness: z.number().int().min(0),
      /** Judge calls go to the worker's engine too (the arena has no separate judge client). */
      judgeOnEngine: z.boolean(),
    }),
  ]),
});
export type RolloutWorkerData = z.infer<typeof RolloutWorkerDataSchema>;

/** Where a request sits in the run (the same as in-process: ids never depend on the worker). */
export const PlacementSchema = z.object({ rolloutId: z.string().min(1), groupId: z.string().min(1) });

export const RolloutTaskSchema = z.discriminatedUnion("kind", [
  /** Loads the episode module and names its episode types. */
  z.object({ kind: z.literal("describe") }),
  /** Runs one top-level episode; its model calls and progress go over `port`. */
  z.object({ kind: z.literal("run"), request: EpisodeRequestSchema, placement: PlacementSchema, port: z.instanceof(MessagePort) }),
]);
export type RolloutTask = z.infer<typeof RolloutTaskSchema>;

/** What a describe task returns: the episode types, or why the module could not give them. */
export const DescribeResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), episodeTypes: z.array(z.string()) }),
  z.object({ ok: z.literal(false), problem: z.string() }),
]);
export type DescribeResult = z.infer<typeof DescribeResultSchema>;

export const ModelTargetSchema = z.enum(["policy", "judge"]);
export type ModelTarget = z.infer<typeof ModelTargetSchema>;

const ErrorRecordSchema = z.object({ name: z.string(), message: z.string() });

/** Worker → main, on a task's port. */
export const WorkerMessageSchema = z.discriminatedUnion("type", [
  /** The worker began the task: its timeout starts now, not while it waited for a worker. */
  z.object({ type: z.literal("started") }),
  z.object({ type: z.literal("generate"), id: z.number().int(), target: ModelTargetSchema, requests: z.array(GenerationRequestSchema).min(1) }),
  /** The top-level episode entered a lifecycle stage: a crash is recorded at the stage it happened in. */
  z.object({ type: z.literal("stage"), stage: FailureStageSchema }),
  /** A model call on the worker's own engine started or ended: the timeout does not count that time. */
  z.object({ type: z.literal("model-call"), active: z.boolean() }),
  z.object({ type: z.literal("weights-request"), id: z.number().int() }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessageSchema>;

/** Main → worker, on a task's port. */
export const MainMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("generated"), id: z.number().int(), outputs: z.array(GenerationOutputSchema) }),
  z.object({ type: z.literal("generate-failed"), id: z.number().int(), error: ErrorRecordSchema }),
  z.object({ type: z.literal("weights"), id: z.number().int(), weights: WorkerWeightsSchema }),
  /** The arena's signal was aborted. */
  z.object({ type: z.literal("abort") }),
]);
export type MainMessage = z.infer<typeof MainMessageSchema>;
