import { z } from "zod";
import { JsonObjectSchema } from "../../core/json.js";
import { TrainerBackendSchema } from "../trainer/trainer-checkpoint.js";
import { LeagueSnapshotSchema } from "./league.js";
import { TrainingConfigurationSchema } from "./training-configuration.js";

/** A held-out evaluation of the run: greedy accuracy after `step` updates, and when it finished. */
export const TrainingEvaluationSchema = z.object({
  /** The step whose weights were evaluated (0: before any update). */
  step: z.number().int().min(0),
  /** The environment's held-out figure at those weights (`EnvironmentEvaluation.heldOutAccuracy`): greedy accuracy, or its own share. */
  heldOutAccuracy: z.number(),
  /** Held-out items it was measured on. */
  n: z.number().int().min(0),
  /** Wall-clock seconds since the run started when the evaluation finished. */
  elapsedSeconds: z.number().min(0),
  /** The environment's own figures of the evaluation (`EnvironmentEvaluation.figures`), when it has any; under `opponents: league`, where the environment plays opponents (`evaluatesOpponents`), its record against each snapshot but the current version too. */
  figures: z.record(z.string(), z.number()).optional(),
});
export type TrainingEvaluation = z.infer<typeof TrainingEvaluationSchema>;

/**
 * `checkpoints/step-<k>.json` of a training run: everything step k + 1
 * starts from. The trainer's own state (weights, AdamW, minibatch stream)
 * is the folder `step-<k>.trainer/` in the one trainer checkpoint format.
 * Written last, by rename: the newest complete manifest wins.
 */
export const TrainingCheckpointSchema = z.object({
  version: z.literal(2),
  step: z.number().int().min(0),
  /** The environment's name and, for a user's module, where it was loaded from. */
  environment: z.object({ name: z.string().min(1), module: z.string().min(1).optional() }),
  /** The base model the run started from (absolute). */
  modelPath: z.string().min(1),
  configuration: TrainingConfigurationSchema,
  /** The backend that trained; a resume may use another (any backend reads the trainer checkpoint). */
  trainerBackend: TrainerBackendSchema,
  /** The trainer checkpoint folder, relative to the run folder. */
  trainer: z.string().min(1),
  /** `Arena.snapshot()`: episode and batch counters (which seed every rollout), credit baselines, artifact stores. */
  arena: JsonObjectSchema,
  /** Bytes of metrics.jsonl and rollouts.jsonl at the checkpoint: a resumed run cuts what the killed one wrote after it. */
  metricsBytes: z.number().int().min(0),
  rolloutsBytes: z.number().int().min(0),
  /** The step requests' state (the frontier's tracker); null in uniform mode. */
  frontier: JsonObjectSchema.nullable(),
  evaluations: z.array(TrainingEvaluationSchema),
  /** Wall-clock seconds of the run so far. */
  elapsedSeconds: z.number().min(0),
  /**
   * The stopping rules' counts at the checkpoint — updates in a row with every minibatch non-finite, steps in a row
   * with too many failed rollouts — so a resumed run stops where the uninterrupted one would. Absent in older
   * checkpoints: 0.
   */
  streaks: z.object({ nonFiniteUpdates: z.number().int().min(0), failingSteps: z.number().int().min(0) }).default({ nonFiniteUpdates: 0, failingSteps: 0 }),
  /** The snapshot versions a `league` run holds after this step. */
  league: LeagueSnapshotSchema.optional(),
});
export type TrainingCheckpoint = z.infer<typeof TrainingCheckpointSchema>;
