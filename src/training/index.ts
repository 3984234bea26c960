// Training: the loop, the Trainer interface and the ggml backend. The tfjs backend (./tfjs/index.ts) and PRM training
// (./prm/index.ts) load tfjs and have their own indexes, so importing this one loads neither.
export { train, type TrainOptions, type TrainResult } from "./loop/train.js";
export { TrainingConfigurationSchema, type TrainingConfiguration, type TrainingConfigurationInput } from "./loop/training-configuration.js";
export { TrainingCheckpointSchema, type TrainingCheckpoint, type TrainingEvaluation } from "./loop/training-checkpoint.js";
export { findTrainingCheckpoint } from "./loop/training-checkpoint-files.js";
export type { TrainingStepMetrics } from "./loop/training-step-metrics.js";
export type { Trainer, TrainerSync } from "./trainer/trainer.js";
export { TrainerBackendSchema, TrainerWeightsSchema, TRAINER_CHECKPOINT_FILES, TrainerCheckpointManifestSchema, type TrainerBackend, type TrainerWeights, type TrainerCheckpointManifest } from "./trainer/trainer-checkpoint.js";
export { TrainerOptionsSchema, TrainerLoraOptionsSchema, type TrainerOptions, type TrainerLoraOptions } from "./trainer/trainer-options.js";
export { createTrainer } from "./trainer/create-trainer.js";
export { defaultTrainerWeights } from "./trainer/default-trainer-weights.js";
export { TrainerConfigurationSchema, type TrainerConfiguration, type TrainerConfigurationInput } from "./trainer/trainer-configuration.js";
export type { UpdateMetrics } from "./update/update-metrics.js";
export { replayConstraintMasks, type ConstraintMaskReplayer } from "./update/replay-constraint-masks.js";
export { GgmlTrainer, GgmlTrainerOptionsSchema, type GgmlTrainerOptions } from "./ggml/ggml-trainer.js";
export { GgmlMemoryError, GgmlTrainerUnavailableError } from "./ggml/errors/index.js";
export { NothingTrainedError, RolloutsFailedError, TrainingDivergedError } from "./loop/errors/index.js";
export { exportRun, ExportRunOptionsSchema, type ExportRunOptions, type ExportSummary } from "./export/export-run.js";
export { ExportFormatSchema, type ExportFormat } from "./export/export-format.js";
