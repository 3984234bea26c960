import { z } from "zod";
import { ArtifactStore } from "../arena/artifact-store.js";
import { EpisodeModuleSchema } from "../arena/pool/episode-module.js";
import { JsonObjectSchema } from "../core/json.js";

const functionSchema = z.custom<(...parameters: never[]) => unknown>((value) => typeof value === "function", "a function");

/**
 * The run-time shape of an Environment, for objects a user's module returns:
 * what the interface's types promise, checked before the loop relies on it.
 * Strict, as are its plan entries and clusters: a key it does not declare
 * (`evalute`, `plna`) is refused with the nearest valid one, never dropped.
 */
export const EnvironmentShapeSchema = z.strictObject({
  name: z.string().min(1),
  episodes: EpisodeModuleSchema,
  stores: z.record(z.string(), z.instanceof(ArtifactStore, { message: "an ArtifactStore (ArtifactStore.of([...]))" })),
  plan: z
    .array(z.strictObject({ episodeType: z.string().min(1), count: z.number().int().min(1), groupSize: z.number().int().min(1).optional() }))
    .min(1, "at least one entry: what one step runs"),
  frozenRoles: z.record(z.string().min(1), z.string().min(1, '"base" or a GGUF model or adapter path')).optional(),
  contextSize: z.number().int().min(16).max(131_072).optional(),
  samplerDefaults: z.strictObject({ temperature: z.number().min(0).optional(), maxTokens: z.number().int().min(1).optional() }).optional(),
  clusters: z
    .strictObject({
      episodeType: z.string().min(1),
      names: z.array(z.string().min(1)).min(1),
      of: functionSchema,
      outcomes: functionSchema.optional(),
      shares: z.record(z.string(), z.number().finite().min(0, "a data share ≥ 0 (a cluster's problem or row count)")).optional(),
      firstTask: functionSchema.optional(),
      subEpisodeGroups: z.strictObject({ size: z.number().int().min(1), withSize: functionSchema }).optional(),
    })
    .optional(),
  labelledEpisodeTypes: z.array(z.string().min(1)).min(1, "at least one episode type, or leave it out to label every type").optional(),
  evaluate: functionSchema.optional(),
  evaluatesPassAtK: z.boolean().optional(),
  evaluatesOpponents: z.boolean().optional(),
  adjustStepRewards: functionSchema.optional(),
  summarise: functionSchema.optional(),
  summariseRun: functionSchema.optional(),
  trainingDefaults: JsonObjectSchema.optional(),
  scriptedPlayers: z.array(z.strictObject({ when: z.union([z.instanceof(RegExp), functionSchema]), reply: z.unknown() })).optional(),
});
