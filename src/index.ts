// The public API of selfplay. Everything a user imports comes from here;
// test doubles come from "selfplay/testing".

// Contracts (zod schemas and the types inferred from them)
export { JsonValueSchema, JsonObjectSchema, type JsonValue, type JsonObject } from "./core/json.js";
export { MessageSchema, MessagesSchema, type Message, type Messages } from "./core/schemas/message.js";
export {
  SamplerSettingsSchema,
  SamplerOverridesSchema,
  SeedSchema,
  DEFAULT_SAMPLER,
  MAX_SEED,
  type SamplerSettings,
  type SamplerOverrides,
} from "./core/schemas/sampler-settings.js";
export { ConstraintSchema, LogitBiasSchema, type Constraint, type LogitBias } from "./core/schemas/constraint.js";
export { RoleSchema, type Role, type RoleInput } from "./core/schemas/role.js";
export { StepSchema, FinishReasonSchema, type Step, type FinishReason } from "./core/schemas/step.js";
export { RolloutSchema, type Rollout } from "./core/schemas/rollout.js";
export { EpisodeRequestSchema, type EpisodeRequest } from "./core/schemas/episode-request.js";
export {
  GenerateResultSchema,
  RewardsSchema,
  OutcomeSchema,
  FailureStageSchema,
  type GenerateResult,
  type Rewards,
  type Outcome,
  type FailureStage,
} from "./core/schemas/generate-result.js";
export { ModelResponseSchema, type ModelResponse } from "./core/schemas/model-response.js";
export {
  TrainingRecordSchema,
  TrainingBatchSchema,
  type TrainingRecord,
  type TrainingBatch,
} from "./core/schemas/training-record.js";
export {
  InferenceCapabilitiesSchema,
  GenerationRequestSchema,
  GenerationOutputSchema,
  WeightUpdateSchema,
  type InferenceCapabilities,
  type GenerationRequest,
  type GenerationOutput,
  type WeightUpdate,
  type GenerateOptions,
  type InferenceClient,
} from "./core/inference-client.js";

// Inference on local models
export { LlamaInferenceClient } from "./inference/llama/llama-inference-client.js";
export { LlamaInferenceClientOptionsSchema, type LlamaInferenceClientOptions } from "./inference/llama/llama-client-options.js";
export { jsonSchemaToGbnf } from "./inference/grammar/json-schema-to-gbnf.js";

// GGUF files and project-made models
export { GgufReader } from "./gguf/gguf-reader.js";
export { writeGguf } from "./gguf/write-gguf.js";
export { inspectGguf } from "./gguf/inspect-gguf.js";
export { dequantize, DEQUANTIZABLE_TYPES } from "./gguf/dequantize.js";
export { createRandomModel, CreateRandomModelOptionsSchema, type CreateRandomModelOptions, type CreatedModel } from "./inference/model-files/create-random-model.js";
export { validateModelFile, type ValidatedModelFile } from "./inference/model-files/validate-model-file.js";
export { MODEL_PRESETS, ModelPresetNameSchema, type ModelPresetName } from "./inference/model-files/model-presets.js";

// Episodes
export { Episode } from "./core/episodes/episode.js";
export type {
  EpisodeContext,
  CallModelOptions,
  StructuredCallOptions,
  StructuredModelResponse,
} from "./core/episodes/episode-context.js";

// Schema-bound (strict JSON) outputs
export { jsonSchemaConstraint } from "./core/structured/json-schema-constraint.js";
export { extractJson } from "./core/structured/extract-json.js";
export { sampleStructured, type SampleStructuredOptions, type StructuredSample } from "./core/structured/sample-structured.js";
export {
  StructuredOutputStatsSchema,
  StructuredOutputsSchema,
  type StructuredOutputStats,
  type StructuredOutputs,
} from "./core/structured/structured-output-stats.js";
export { SingleTurnEpisode, type SingleTurnState } from "./core/episodes/single-turn-episode.js";
export { MultiTurnEpisode, type MultiTurnState, type EnvironmentReply } from "./core/episodes/multi-turn-episode.js";
export {
  AlternatingRolesEpisode,
  viewOf,
  type AlternatingRolesState,
  type Turn,
} from "./core/episodes/alternating-roles-episode.js";

// Verifiers and rewards
export type {
  Verifier,
  VerifierOutput,
  ScoringContext,
  JudgeCallOptions,
  StructuredJudgeOptions,
  StructuredJudgeResponse,
} from "./core/verifiers/verifier.js";
export { ExactMatchVerifier, type ExactMatchVerifierOptions } from "./core/verifiers/exact-match-verifier.js";
export { LLMJudgeVerifier, type LLMJudgeVerifierOptions, type JudgeParse } from "./core/verifiers/llm-judge-verifier.js";
export {
  ZeroSumJudgeVerifier,
  parseWinner,
  type ZeroSumJudgeVerifierOptions,
} from "./core/verifiers/zero-sum-judge-verifier.js";
export { MonteCarloVerifier, type MonteCarloVerifierOptions } from "./core/verifiers/monte-carlo-verifier.js";
export { formatTranscript } from "./core/verifiers/transcript.js";
export { gaussianSolveRateReward, type GaussianSolveRateRewardOptions } from "./core/rewards/gaussian-solve-rate-reward.js";
export { absoluteZeroReward } from "./core/rewards/absolute-zero-reward.js";
export { rZeroReward } from "./core/rewards/r-zero-reward.js";
export { DifficultyRewardSchema, difficultyReward, type DifficultyReward } from "./core/rewards/difficulty-reward.js";

// Credit assignment
export type { CreditAssigner, CreditSample } from "./core/credit/credit-assigner.js";
export { RewardBroadcast } from "./core/credit/reward-broadcast.js";
export { GrpoAdvantage, type GrpoAdvantageOptions } from "./core/credit/grpo-advantage.js";
export { RlooAdvantage } from "./core/credit/rloo-advantage.js";
export { RoleBaselineAdvantage, type RoleBaselineAdvantageOptions } from "./core/credit/role-baseline-advantage.js";
export { RoleAwareCredit, type RoleAwareCreditOptions } from "./core/credit/role-aware-credit.js";

// Randomness and files
export { RandomStream, deriveStream, type RandomStreamState } from "./core/random/random-stream.js";
export { JsonlAppender } from "./core/jsonl/jsonl-appender.js";
export { readJsonl, type JsonlContents } from "./core/jsonl/read-jsonl.js";
export { writeFileAtomic } from "./core/write-file-atomic.js";

// Arena
export { Arena, type ArenaOptions, type BatchPlanEntry, type ArenaEvents, type ArenaSnapshot } from "./arena/arena.js";
export { ArtifactStore, type ArtifactStoreOptions, type ArtifactEntry, type ArtifactStoreSnapshot } from "./arena/artifact-store.js";
export type { CreditAssignment } from "./arena/credit-assignment.js";
export { RunDirectory, RUN_FILES } from "./arena/run-directory.js";
export { runBatches, type RunBatchesOptions } from "./arena/run-batches.js";
export type { BatchMetrics } from "./arena/batch-metrics.js";

// Examples from the specification
export { DebateEpisode, DEBATE_TOPICS, type DebateEpisodeOptions, type DebateArtifact } from "./examples/debate/debate-episode.js";
export {
  ProposerEpisode,
  ARITHMETIC_TOPICS,
  PROPOSER_ROLE,
  type ProposerEpisodeOptions,
  type ProposeArtifact,
} from "./examples/proposer-solver/proposer-episode.js";
export { SolverEpisode, SOLVER_ROLE, type SolveArtifact } from "./examples/proposer-solver/solver-episode.js";

// Errors
export {
  SelfplayError,
  InvalidInputError,
  UnknownEpisodeTypeError,
  UnknownRoleError,
  JudgeOutputError,
  StructuredOutputError,
  UnsupportedSchemaError,
  InvalidRewardError,
  CorruptJsonlError,
  ScriptExhaustedError,
  RolloutAbortedError,
  GgufError,
  GgufFileNotFoundError,
  NotGgufError,
  UnsupportedGgufVersionError,
  TruncatedGgufError,
  CorruptGgufError,
  UnsupportedTensorTypeError,
  GgufTensorNotFoundError,
  InvalidModelFileError,
  WasmOutOfMemoryError,
  type ErrorRecord,
} from "./core/errors.js";
