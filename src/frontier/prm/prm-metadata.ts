import { z } from "zod";
import { FeaturiserSettingsSchema } from "./featuriser-settings.js";
import { PrmMetricsSchema } from "../metrics/prm-metrics.js";

/** The two files of a saved PRM, inside its directory. */
export const PRM_FILES = { model: "prm.onnx", metadata: "prm.json" } as const;

/** The network's shape: features → dense(hidden) → activation → dense(1) → sigmoid. */
export const PrmNetworkShapeSchema = z.object({
  inputDimensions: z.number().int().positive(),
  hiddenDimensions: z.number().int().positive(),
  /** The hidden layer's nonlinearity. */
  activation: z.enum(["relu", "tanh"]),
});
export type PrmNetworkShape = z.infer<typeof PrmNetworkShapeSchema>;

/** How the PRM was trained, and how it scored on its held-out split. */
export const PrmTrainingSummarySchema = z.object({
  /** Labelled states read. */
  examples: z.number().int().min(0),
  trainExamples: z.number().int().min(0),
  heldOutExamples: z.number().int().min(0),
  /** Share of tasks held out (by hash of the task text). */
  heldOutFraction: z.number().min(0).max(1),
  epochs: z.number().int().min(0),
  batchSize: z.number().int().positive(),
  learningRate: z.number().positive(),
  weightDecay: z.number().min(0),
  seed: z.number().int().min(0),
  /** Mean binary cross-entropy on the training split after the last epoch. */
  finalTrainingLoss: z.number().nullable(),
  /** The PRM directory this one was fine-tuned from, or null when trained from scratch. */
  from: z.string().nullable(),
  heldOut: PrmMetricsSchema,
});
export type PrmTrainingSummary = z.infer<typeof PrmTrainingSummarySchema>;

/** `prm.json`: everything needed to featurise a state and run `prm.onnx` on it. */
export const PrmMetadataSchema = z.object({
  format: z.literal("selfplay-prm"),
  version: z.literal(1),
  featuriser: FeaturiserSettingsSchema,
  network: PrmNetworkShapeSchema,
  /** Names in the ONNX graph: input `[batch, inputDimensions]` float32, output `[batch, 1]` probabilities. */
  onnx: z.object({ input: z.string().min(1), output: z.string().min(1), opset: z.number().int().positive() }),
  training: PrmTrainingSummarySchema,
});
export type PrmMetadata = z.infer<typeof PrmMetadataSchema>;
