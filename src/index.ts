// The public API of selfplay: what most users need. The rest has subpath entries (src/entries/): selfplay/tournament,
// selfplay/dream, selfplay/riddles, selfplay/dialectic, selfplay/gguf, selfplay/prm, selfplay/tfjs; test doubles are
// selfplay/testing. tests/public-api.test.ts snapshots every entry, so an export is added on purpose. Importing this
// entry loads neither tfjs nor a native addon.

// Contracts, episodes, verifiers, rewards, credit assignment, randomness and files
export {
  JsonValueSchema, JsonObjectSchema, type JsonValue, type JsonObject, MessageSchema, MessagesSchema, type Message,
  type Messages, SamplerSettingsSchema, SamplerOverridesSchema, SeedSchema, DEFAULT_SAMPLER, MAX_SEED,
  type SamplerSettings, type SamplerOverrides, ConstraintSchema, LogitBiasSchema, type Constraint, type LogitBias,
  RoleSchema, type Role, type RoleInput, StepSchema, FinishReasonSchema, type Step, type FinishReason, RolloutSchema,
  type Rollout, EpisodeRequestSchema, type EpisodeRequest, GenerateResultSchema, RewardsSchema, OutcomeSchema,
  FailureStageSchema, type GenerateResult, type Rewards, type Outcome, type FailureStage, ModelResponseSchema,
  type ModelResponse, TrainingRecordSchema, TrainingBatchSchema, type TrainingRecord, type TrainingBatch,
  InferenceCapabilitiesSchema, GenerationRequestSchema, GenerationOutputSchema, WeightUpdateSchema,
  type InferenceCapabilities, type GenerationRequest, type GenerationOutput, type WeightUpdate, type GenerateOptions,
  type InferenceClient, Episode, type EpisodeContext, type CallModelOptions, type StructuredCallOptions,
  type StructuredModelResponse, jsonSchemaConstraint, extractJson, sampleStructured, type SampleStructuredOptions,
  type StructuredSample, StructuredOutputStatsSchema, StructuredOutputsSchema, type StructuredOutputStats,
  type StructuredOutputs, SingleTurnEpisode, type SingleTurnState, MultiTurnEpisode, type MultiTurnState,
  type EnvironmentReply, AlternatingRolesEpisode, type AlternatingRolesState, type Turn, type Verifier,
  type VerifierOutput, type ScoringContext, type JudgeCallOptions, type StructuredJudgeOptions,
  type StructuredJudgeResponse, ExactMatchVerifier, type ExactMatchVerifierOptions, LLMJudgeVerifier,
  type LLMJudgeVerifierOptions, type JudgeParse, ZeroSumJudgeVerifier, zeroSumVerdictSchema,
  type ZeroSumJudgeVerifierOptions, JudgeOrdersSchema, type JudgeOrders, JudgeLabelsSchema, type JudgeLabels, judgingFigures, type JudgingFigures, MonteCarloVerifier, type MonteCarloVerifierOptions, formatTranscript,
  gaussianSolveRateReward, type GaussianSolveRateRewardOptions, absoluteZeroReward, rZeroReward,
  DifficultyRewardSchema, difficultyReward, type DifficultyReward, type CreditAssigner, type CreditSample,
  RewardBroadcast, GrpoAdvantage, type GrpoAdvantageOptions, RlooAdvantage, RoleBaselineAdvantage,
  type RoleBaselineAdvantageOptions, RoleAwareCredit, type RoleAwareCreditOptions, RandomStream, deriveStream,
  type RandomStreamState, JsonlAppender, readJsonl, type JsonlContents, writeFileAtomic, GrammarConstraintSchema,
  type GrammarConstraint
} from "./core/index.js";

// Inference: the llama.cpp client, the client of llama-server and vLLM fleets, devices, grammars, model and LoRA adapter files, embeddings
export {
  LlamaInferenceClient, LlamaInferenceClientOptionsSchema, type LlamaInferenceClientOptions, DeviceSchema,
  DeviceRecordSchema, parseDevice, resolveDevice, describeDevice, deviceRecord, type Device, type DeviceKind,
  type DeviceRequest, type DeviceRecord, type GgmlDevice, type ResolvedDevice, findDevice, listNativeDevices,
  type NativeDevices, jsonSchemaToGbnf, createRandomModel, CreateRandomModelOptionsSchema,
  type CreateRandomModelOptions, type CreatedModel, validateModelFile, type ValidatedModelFile, MODEL_PRESETS,
  ModelPresetNameSchema, type ModelPresetName, writeLoraAdapter, WriteLoraAdapterOptionsSchema,
  type WriteLoraAdapterOptions, type LoraMatrixPair, type WrittenLoraAdapter, createRandomLoraAdapter,
  CreateRandomLoraAdapterOptionsSchema, DEFAULT_LORA_TARGETS, type CreateRandomLoraAdapterOptions, readLoraAdapter,
  type LoraAdapterHeader, type LoraAdapterTensor, validateLoraAdapter, type ValidatedLoraAdapter, mergeLoraAdapter,
  MergeLoraAdapterOptionsSchema, type MergeLoraAdapterOptions, type MergedModel, writePeftAdapter,
  WritePeftAdapterOptionsSchema, type WritePeftAdapterOptions, type WrittenPeftAdapter, ConstraintMasksSchema,
  type ConstraintMasks, LlamaTextEmbedder, LlamaTextEmbedderOptionsSchema, type LlamaTextEmbedderOptions,
  OpenAICompatibleClient, type WeightUpdateTiming, OpenAICompatibleClientOptionsSchema, ServerKindSchema,
  type OpenAICompatibleClientOptions, type ServerKind, type EndpointStatus
} from "./inference/index.js";

// The arena and the rollout pool
export {
  Arena, type ArenaOptions, type BatchPlanEntry, type ArenaEvents, type ArenaSnapshot, ArtifactStore,
  type ArtifactStoreOptions, type ArtifactEntry, type ArtifactStoreSnapshot, type CreditAssignment, RunDirectory,
  RUN_FILES, runBatches, type RunBatchesOptions, type BatchMetrics, RolloutPoolOptionsSchema,
  type RolloutPoolOptions, EpisodeModuleSchema, loadEpisodeModule, type EpisodeModule, type EpisodeModuleInput,
  type EpisodeFactory, WorkerEngineClient
} from "./arena/index.js";

// Environments: what a task hands the training loop
export {
  type Environment, type EnvironmentClusters, type EnvironmentEvaluation, type EnvironmentEvaluateOptions, type EvaluationOpponent, type ClusterStepOutcome,
  type EnvironmentFactory, loadEnvironmentFrom, ENVIRONMENT_FACTORY_EXPORT, type EnvironmentRegistry
} from "./environments/index.js";

// The built-in tasks: environment factories and their episodes
export {
  loadEnvironment, BUILT_IN_ENVIRONMENTS, createArithmeticEnvironment, ArithmeticEnvironmentOptionsSchema,
  type ArithmeticEnvironmentOptions, createProposerSolverEnvironment, ProposerSolverEnvironmentOptionsSchema,
  type ProposerSolverEnvironmentOptions, createExactMatchEnvironment, ExactMatchEnvironmentOptionsSchema,
  type ExactMatchEnvironmentOptions, createDebateEnvironment, DebateEnvironmentOptionsSchema,
  type DebateEnvironmentOptions, createDialecticEnvironment, DialecticEnvironmentOptionsSchema, DIALECTIC_TASKS,
  type DialecticEnvironmentOptions, DebateEpisode, DebateEpisodeOptionsSchema, DEBATE_TOPICS,
  type DebateEpisodeOptions, type DebateArtifact, ProposerEpisode, ARITHMETIC_TOPICS, PROPOSER_ROLE,
  type ProposerEpisodeOptions, type ProposeArtifact, SolverEpisode, SOLVER_ROLE, type SolveArtifact, type SolverEpisodeOptions,
  createDreamEnvironment, DreamEnvironmentOptionsSchema, type DreamEnvironmentOptions, createRiddlesEnvironment,
  RiddlesEnvironmentOptionsSchema, type RiddlesEnvironmentOptions, type RiddlesEnvironmentOptionsInput,
  createTournamentEnvironment, TournamentEnvironmentOptionsSchema, type TournamentEnvironmentOptions,
  createTicTacToeEnvironment, TicTacToeEnvironmentOptionsSchema, type TicTacToeEnvironmentOptions,
  evaluateArithmetic, type ArithmeticExample, type ArithmeticEvaluation, type EvaluateArithmeticOptions,
  createDatasetEnvironment, DatasetEnvironmentOptionsSchema, type DatasetEnvironmentOptions, type RewardFunction,
  type WeightedReward, type RewardInput, readDataset, type DatasetFormat, RewardFunctionError,
  DatasetFunctionsUnavailableError
} from "./tasks/index.js";

// Training: the loop, the Trainer interface and the ggml backend (the tfjs backend is `selfplay/tfjs`)
export {
  train, type TrainOptions, type TrainResult, TrainingConfigurationSchema, type TrainingConfiguration,
  type TrainingConfigurationInput, TrainingCheckpointSchema, type TrainingCheckpoint, type TrainingEvaluation,
  findTrainingCheckpoint, type TrainingStepMetrics, type Trainer, type TrainerSync, TrainerBackendSchema,
  TrainerWeightsSchema, TRAINER_CHECKPOINT_FILES, TrainerCheckpointManifestSchema, type TrainerBackend,
  type TrainerWeights, type TrainerCheckpointManifest, TrainerOptionsSchema, TrainerLoraOptionsSchema,
  type TrainerOptions, type TrainerLoraOptions, createTrainer, defaultTrainerWeights, TrainerConfigurationSchema,
  type TrainerConfiguration, type TrainerConfigurationInput, type UpdateMetrics, replayConstraintMasks,
  type ConstraintMaskReplayer, GgmlTrainer, GgmlTrainerOptionsSchema, type GgmlTrainerOptions
} from "./training/index.js";

// Export: a run's rollouts as TRL's and verl's datasets (Parquet) or selfplay's own trajectories
export { exportRun, ExportRunOptionsSchema, type ExportRunOptions, type ExportSummary, ExportFormatSchema, type ExportFormat } from "./training/index.js";

// Errors, each from the errors/ folder beside the layer that throws it
export { SelfplayError, InvalidInputError, UnknownKeyError, JudgeOutputError, StructuredOutputError, InvalidRewardError, CorruptJsonlError, type ErrorRecord } from "./core/errors/index.js";
export { GgufError, GgufFileNotFoundError, NotGgufError, UnsupportedGgufVersionError, TruncatedGgufError, CorruptGgufError, UnsupportedTensorTypeError, GgufTensorNotFoundError } from "./gguf/errors/index.js";
export {
  DeviceNotFoundError,
  DeviceBuildConflictError,
  GrammarRejectedTokenError,
  UnsupportedSchemaError,
  ScriptExhaustedError,
  InvalidModelFileError,
  InvalidAdapterFileError,
  AdapterMismatchError,
  EndpointRequestError,
  EndpointUnavailableError,
  ServerCapabilityError,
  PolicyVersionMismatchError,
  PeftConversionError,
} from "./inference/errors/index.js";
export { UnknownEpisodeTypeError, UnknownRoleError, RolloutAbortedError } from "./arena/errors/index.js";
export { EpisodeModuleError, RolloutWorkerCrashedError, RolloutTimeoutError, RolloutPoolError } from "./arena/pool/errors/index.js";
export { DroppedRolloutError, EnvironmentModuleError } from "./environments/errors/index.js";
export { MultiTurnEpisodeError, PrmModelError, InvalidPrmScoreError } from "./frontier/errors/index.js";
export { KernelFileError, UnknownActionError, KernelVersionMismatchError, ExploitRecordError } from "./tournament/errors/index.js";
export { WasmOutOfMemoryError } from "./training/tfjs/errors/index.js";
export { GgmlMemoryError, GgmlTrainerUnavailableError } from "./training/ggml/errors/index.js";
export { NothingTrainedError, RolloutsFailedError, TrainingDivergedError } from "./training/loop/errors/index.js";
