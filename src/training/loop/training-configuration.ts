import { z } from "zod";
import { JsonValueSchema } from "../../core/json.js";
import { SeedSchema } from "../../core/schemas/sampler-settings.js";
import { DeviceSchema } from "../../inference/device/device-option.js";
import { TrainerWeightsSchema } from "../trainer/trainer-checkpoint.js";
import { TrainerLoraOptionsSchema } from "../trainer/trainer-options.js";
import { FrontierConfigurationSchema } from "../../frontier/frontier-configuration.js";
import { TrainerConfigurationSchema } from "../trainer/trainer-configuration.js";
import { DynamicSamplingConfigurationSchema } from "./dynamic-sampling-configuration.js";
import { LeagueConfigurationSchema, OpponentsSchema } from "./league-configuration.js";

/** Everything a training run runs with, whatever the environment; a config file overrides any part of it. */
export const TrainingConfigurationSchema = z.strictObject({
  /** Policy updates. Default 150. */
  steps: z.number().int().min(1).default(150),
  /** Seed of every random stream of the run (prompts, sampling, minibatch order): the same seed replays the same run. Default 0. */
  seed: SeedSchema.default(0),
  /** Sampling temperature of every role unless the environment or a role says otherwise. Default 1. */
  temperature: z.number().positive().default(1),
  /** Sequences the engine decodes in parallel. Default 16. */
  sequences: z.number().int().min(1).max(256).default(16),
  /** Top-level episodes in flight at once; default every prompt of a step (the plan's counts × group sizes). */
  concurrency: z.number().int().min(1).optional(),
  /** Steps between held-out evaluations (environments that have one); 0 evaluates only at the start and the end. Default 10. */
  evaluateEvery: z.number().int().min(0).default(10),
  /**
   * Updates in a row whose every minibatch had a non-finite loss or gradient
   * (each skipped and counted, no weight changed) before the run stops with
   * exit 1 (`TrainingDivergedError`). Default 3.
   */
  maxNonFiniteUpdates: z.number().int().min(1).default(3),
  /**
   * Share of a step's rollouts (sub-episodes included; those its environment
   * dropped by design are left out of both sides), from 0 (exclusive) to 1,
   * that failing — an episode or verifier threw — makes the step count
   * towards `maxFailedSteps`. Default 0.5.
   */
  maxFailedFraction: z.number().gt(0).max(1).default(0.5),
  /**
   * Steps in a row with at least `maxFailedFraction` of their rollouts failed
   * before the run stops with exit 1 (`RolloutsFailedError`, naming the stage,
   * the error and a rollout id). Default 3.
   */
  maxFailedSteps: z.number().int().min(1).default(3),
  /**
   * Synced policies kept in `policies/`: the newest K versions (a 0.5B model's is ~1 GB a step), or `"all"`. Version 0
   * (a trainer's initial adapter) and the checkpoints' own files are never deleted. Default 2.
   */
  keepPolicies: z.union([z.number().int().min(1), z.literal("all")]).default(2),
  /**
   * Who plays the roles the environment binds to a frozen policy (`frozenRoles`, a task's `opponent` option):
   * `current` (the policy being trained, its Steps trained), `frozen` (the environment's frozen policy) or
   * `league` (drawn per rollout from the run's snapshots, `league`). Default: `frozen` when the environment binds any, else `current`.
   */
  opponents: OpponentsSchema.optional(),
  /** The league of `opponents: "league"`: its size (default the 4 most recent versions) and the current policy's share (default 0.5). */
  league: LeagueConfigurationSchema.default(LeagueConfigurationSchema.parse({})),
  /** How the clustered prompts are chosen: uniformly (default) or by the PRM-weighted frontier (environments with clusters). */
  frontier: FrontierConfigurationSchema.default({ mode: "uniform" }),
  /** DAPO's dynamic sampling: draw again until a step has its target of informative groups (`enabled`, `targetGroups`, `maxDraws`, `maxSeconds`). Default off. */
  dynamicSampling: DynamicSamplingConfigurationSchema.default(DynamicSamplingConfigurationSchema.parse({})),
  /** The update: TrainerConfigurationSchema's defaults (GRPO), under the environment's own `trainingDefaults`. */
  trainer: TrainerConfigurationSchema.default(TrainerConfigurationSchema.parse({})),
  /** `full` or `lora`; default `full` for project-made models, `lora` for any other. */
  weights: TrainerWeightsSchema.optional(),
  /** The adapter a `lora` run trains (rank, alpha, targets). */
  lora: TrainerLoraOptionsSchema.default(TrainerLoraOptionsSchema.parse({})),
  /**
   * Where every model of the run runs — the learner's engine, the ggml trainer (the same device), a judge,
   * frozen opponents: "auto" (the first GPU ggml finds, never a CPU-type Vulkan device; else the CPU),
   * "cpu", "cuda[:N]" or "vulkan[:N]". A resumed run may go on on another device. Default "auto".
   */
  device: DeviceSchema.default("auto"),
  /** The environment's own options (its factory validates them), e.g. `{"solvers": 16}` for arithmetic. */
  environment: JsonValueSchema.default({}),
});
export type TrainingConfiguration = z.infer<typeof TrainingConfigurationSchema>;
export type TrainingConfigurationInput = z.input<typeof TrainingConfigurationSchema>;
