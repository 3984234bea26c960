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
export {
  DeviceSchema,
  DeviceRecordSchema,
  parseDevice,
  resolveDevice,
  describeDevice,
  deviceRecord,
  type Device,
  type DeviceKind,
  type DeviceRequest,
  type DeviceRecord,
  type GgmlDevice,
  type ResolvedDevice,
} from "./inference/device/index.js";
export { findDevice } from "./inference/native/open-native-device.js";
export { listNativeDevices, type NativeDevices } from "./inference/native/list-native-devices.js";
export { DeviceNotFoundError, DeviceBuildConflictError } from "./inference/errors/index.js";
export { jsonSchemaToGbnf } from "./inference/grammar/json-schema-to-gbnf.js";

// GGUF files and project-made models
export { GgufReader } from "./gguf/gguf-reader.js";
export { writeGguf } from "./gguf/write-gguf.js";
export { inspectGguf } from "./gguf/inspect-gguf.js";
export { dequantize, DEQUANTIZABLE_TYPES } from "./gguf/dequantize.js";
export { createRandomModel, CreateRandomModelOptionsSchema, type CreateRandomModelOptions, type CreatedModel } from "./inference/model-files/create-random-model.js";
export { validateModelFile, type ValidatedModelFile } from "./inference/model-files/validate-model-file.js";
export { MODEL_PRESETS, ModelPresetNameSchema, type ModelPresetName } from "./inference/model-files/model-presets.js";

// LoRA adapters
export { writeLoraAdapter, WriteLoraAdapterOptionsSchema, type WriteLoraAdapterOptions, type LoraMatrixPair, type WrittenLoraAdapter } from "./inference/model-files/write-lora-adapter.js";
export {
  createRandomLoraAdapter,
  CreateRandomLoraAdapterOptionsSchema,
  DEFAULT_LORA_TARGETS,
  type CreateRandomLoraAdapterOptions,
} from "./inference/model-files/create-random-lora-adapter.js";
export { readLoraAdapter, type LoraAdapterHeader, type LoraAdapterTensor } from "./inference/model-files/read-lora-adapter.js";
export { validateLoraAdapter, type ValidatedLoraAdapter } from "./inference/model-files/validate-lora-adapter.js";
export { mergeLoraAdapter, MergeLoraAdapterOptionsSchema, type MergeLoraAdapterOptions, type MergedModel } from "./inference/model-files/merge-lora-adapter.js";
export { addLoraUpdate, loraFactor, type LoraUpdateShape } from "./inference/model-files/add-lora-update.js";
export { InvalidAdapterFileError, AdapterMismatchError } from "./inference/errors/index.js";

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
  zeroSumVerdictSchema,
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

// Parallel rollouts: episodes in worker threads, model calls batched on one engine (or one per worker)
export { RolloutPoolOptionsSchema, type RolloutPoolOptions } from "./arena/pool/rollout-pool-options.js";
export {
  EpisodeModuleSchema,
  loadEpisodeModule,
  type EpisodeModule,
  type EpisodeModuleInput,
  type EpisodeFactory,
} from "./arena/pool/episode-module.js";
export { WorkerEngineClient } from "./arena/pool/worker-engine-client.js";
export { EpisodeModuleError, RolloutWorkerCrashedError, RolloutTimeoutError, RolloutPoolError } from "./arena/pool/errors/index.js";

// Environments: what a task hands the training loop
export type { Environment, EnvironmentClusters, EnvironmentEvaluation, ClusterStepOutcome, EnvironmentFactory } from "./environments/environment.js";
export { loadEnvironmentFrom, ENVIRONMENT_FACTORY_EXPORT, type EnvironmentRegistry } from "./environments/load-environment.js";
export { loadEnvironment, BUILT_IN_ENVIRONMENTS } from "./tasks/built-in-environments.js";
export { EnvironmentModuleError } from "./environments/errors/index.js";
export { createArithmeticEnvironment, ArithmeticEnvironmentOptionsSchema, type ArithmeticEnvironmentOptions } from "./tasks/arithmetic/arithmetic-environment.js";
export { createProposerSolverEnvironment, ProposerSolverEnvironmentOptionsSchema, type ProposerSolverEnvironmentOptions } from "./tasks/proposer-solver/proposer-solver-environment.js";
export { createExactMatchEnvironment, ExactMatchEnvironmentOptionsSchema, type ExactMatchEnvironmentOptions } from "./tasks/exact-match/exact-match-environment.js";
export { createDebateEnvironment, DebateEnvironmentOptionsSchema, type DebateEnvironmentOptions } from "./tasks/debate/debate-environment.js";
export { createDialecticEnvironment, DialecticEnvironmentOptionsSchema, DIALECTIC_TASKS, type DialecticEnvironmentOptions } from "./tasks/dialectic/dialectic-environment.js";

// Training: the loop, the Trainer interface and its backends
export { train, type TrainOptions, type TrainResult } from "./training/loop/train.js";
export { TrainingConfigurationSchema, type TrainingConfiguration, type TrainingConfigurationInput } from "./training/loop/training-configuration.js";
export { TrainingCheckpointSchema, type TrainingCheckpoint, type TrainingEvaluation } from "./training/loop/training-checkpoint.js";
export { findTrainingCheckpoint } from "./training/loop/training-checkpoint-files.js";
export type { TrainingStepMetrics } from "./training/loop/training-step-metrics.js";
export type { Trainer, TrainerSync } from "./training/trainer/trainer.js";
export {
  TrainerBackendSchema,
  TrainerWeightsSchema,
  TRAINER_CHECKPOINT_FILES,
  TrainerCheckpointManifestSchema,
  type TrainerBackend,
  type TrainerWeights,
  type TrainerCheckpointManifest,
} from "./training/trainer/trainer-checkpoint.js";
export { TrainerOptionsSchema, TrainerLoraOptionsSchema, type TrainerOptions, type TrainerLoraOptions } from "./training/trainer/trainer-options.js";
export { createTrainer } from "./training/trainer/create-trainer.js";
export { defaultTrainerWeights } from "./training/trainer/default-trainer-weights.js";
export { TfjsTrainer } from "./training/tfjs/tfjs-trainer.js";
export { TrainerConfigurationSchema, type TrainerConfiguration, type TrainerConfigurationInput } from "./training/trainer/trainer-configuration.js";
export type { UpdateMetrics } from "./training/update/update-metrics.js";
// Constrained Steps: the grammar a record was sampled under, its masks rebuilt by llama.cpp's sampler, and the error for tokens it rejects.
export { GrammarConstraintSchema, type GrammarConstraint } from "./core/schemas/grammar-constraint.js";
export { ConstraintMasksSchema, type ConstraintMasks } from "./inference/grammar/constraint-masks.js";
export { NativeConstraintMasks } from "./inference/native/native-constraint-masks.js";
export { GrammarRejectedTokenError } from "./inference/errors/index.js";
export { replayConstraintMasks, type ConstraintMaskReplayer } from "./training/update/replay-constraint-masks.js";

// Curriculum: the process reward model (PRM) and frontier-aware cluster selection
export { PrmStateSchema, PrmExampleSchema, type PrmState, type PrmExample } from "./frontier/prm/prm-state.js";
export type { PrmScorer } from "./frontier/prm/prm-scorer.js";
export { OnnxPrmScorer, type OnnxPrmScorerOptions } from "./frontier/prm/onnx-prm-scorer.js";
export type { Featuriser } from "./frontier/prm/featuriser.js";
export {
  FeaturiserSettingsSchema,
  HashedNgramSettingsSchema,
  EmbeddingSettingsSchema,
  type FeaturiserSettings,
  type HashedNgramSettings,
  type EmbeddingSettings,
} from "./frontier/prm/featuriser-settings.js";
export { HashedNgramFeaturiser, type HashedNgramFeaturiserOptions } from "./frontier/prm/hashed-ngram-featuriser.js";
export { EmbeddingFeaturiser, stateText, type TextEmbedder } from "./frontier/prm/embedding-featuriser.js";
export { LlamaTextEmbedder, LlamaTextEmbedderOptionsSchema, type LlamaTextEmbedderOptions } from "./inference/embeddings/llama-text-embedder.js";
export {
  PrmMetadataSchema,
  PrmNetworkShapeSchema,
  PrmTrainingSummarySchema,
  PRM_FILES,
  type PrmMetadata,
  type PrmNetworkShape,
  type PrmTrainingSummary,
} from "./frontier/prm/prm-metadata.js";
export { readPrmMetadata } from "./frontier/prm/read-prm-metadata.js";
export { readPrmExamples, type PrmExamples } from "./frontier/prm/read-prm-examples.js";
export { expandGlob } from "./frontier/labelling/expand-glob.js";
export { areaUnderRocCurve } from "./frontier/metrics/area-under-roc-curve.js";
export { brierScore } from "./frontier/metrics/brier-score.js";
export { expectedCalibrationError } from "./frontier/metrics/expected-calibration-error.js";
export { clusterPriorScores, type ClusterLabel } from "./frontier/metrics/cluster-prior-scores.js";
export { prmMetrics, PrmMetricsSchema, type PrmMetrics } from "./frontier/metrics/prm-metrics.js";
export { FrontierTracker, type FrontierTrackerOptions, type FrontierSignals } from "./frontier/tracker/frontier-tracker.js";
export { FrontierSettingsSchema, type FrontierSettings, type FrontierSettingsInput } from "./frontier/tracker/frontier-settings.js";
export { ClusterOutcomeSchema, type ClusterOutcome } from "./frontier/tracker/cluster-outcome.js";
export type { ClusterStats } from "./frontier/tracker/cluster-history.js";
export {
  FrontierDecisionSchema,
  FrontierReasonSchema,
  FrontierFallbackSchema,
  FRONTIER_TARGET_HINT,
  type FrontierDecision,
  type FrontierReason,
  type FrontierFallback,
} from "./frontier/tracker/frontier-decision.js";
export { boundaryUncertainty, clusterRarity } from "./frontier/tracker/frontier-signals.js";
export { FrontierTrackerSnapshotSchema, type FrontierTrackerSnapshot } from "./frontier/tracker/frontier-tracker-snapshot.js";
export { openPrmScorer, type OpenPrmScorer } from "./frontier/prm/open-prm-scorer.js";
export { labelTrajectories, type LabelTrajectoriesOptions, type LabelledTrajectories } from "./frontier/labelling/label-trajectories.js";
export { prmTrajectories, type PrmTrajectory } from "./frontier/labelling/prm-trajectory.js";
export { readRolloutTrajectories, type RolloutTrajectories } from "./frontier/labelling/read-rollout-trajectories.js";
export { trajectoryPrefixes, type TrajectoryPrefix, type TrajectoryPrefixesOptions } from "./frontier/labelling/trajectory-prefixes.js";
export type { LabelledEpisode } from "./frontier/labelling/labelled-episode.js";
export type { LabelledEpisodes } from "./frontier/labelling/labelled-episodes.js";
export { outcomeLabel } from "./frontier/labelling/outcome-label.js";
export { continuedStep } from "./frontier/labelling/continued-step.js";
export { MultiTurnEpisodeError } from "./frontier/errors/index.js";
export { taskText } from "./frontier/labelling/task-text.js";
export { byteVocabularyText } from "./frontier/labelling/byte-vocabulary-text.js";
export { PrmModelError, InvalidPrmScoreError } from "./frontier/errors/index.js";

// Examples from the specification
export { DebateEpisode, DebateEpisodeOptionsSchema, DEBATE_TOPICS, type DebateEpisodeOptions, type DebateArtifact } from "./tasks/debate/debate-episode.js";
export {
  ProposerEpisode,
  ARITHMETIC_TOPICS,
  PROPOSER_ROLE,
  type ProposerEpisodeOptions,
  type ProposeArtifact,
} from "./tasks/proposer-solver/proposer-episode.js";
export { SolverEpisode, SOLVER_ROLE, type SolveArtifact } from "./tasks/proposer-solver/solver-episode.js";

// Dialectic: proposer/critic self-play with convergence and oscillation handling
export {
  DialecticEpisode,
  DialecticArtifactSchema,
  type DialecticEpisodeOptions,
  type DialecticArtifact,
  type TrainableCriticOptions,
  type CheckResult,
} from "./dialectic/dialectic-episode.js";
export { DialecticSettingsSchema, type DialecticSettings, type DialecticSettingsInput } from "./dialectic/dialectic-settings.js";
export {
  DialecticOutcomeSchema,
  DialecticStateSchema,
  type DialecticOutcome,
  type DialecticState,
} from "./dialectic/dialectic-outcome.js";
export { DialecticRoundSchema, type DialecticRound } from "./dialectic/dialectic-round.js";
export { runDialecticLoop, type DialecticPorts, type DialecticTask } from "./dialectic/run-dialectic-loop.js";
export { DialecticVerifier, type DialecticVerifierOptions } from "./dialectic/dialectic-verifier.js";
export { proposerReward, criticAgreementReward } from "./dialectic/dialectic-rewards.js";
export { CritiqueSchema, CRITIQUE_LIMITS, type Critique } from "./dialectic/critique.js";
export { parseCritique } from "./dialectic/parse-critique.js";
export {
  WeightedCritiqueSchema,
  AspectWeightsSchema,
  DEFAULT_ASPECT_WEIGHTS,
  weightedScore,
  critiqueFromWeighted,
  type WeightedCritique,
  type AspectScores,
  type AspectWeights,
} from "./dialectic/weighted-critique.js";
export { DEFAULT_CRITIC_SAMPLER, type Critic, type CriticOptions, type StructuredAsk } from "./dialectic/critic.js";
export { StandardCritic } from "./dialectic/standard-critic.js";
export { WeightedCritic, type WeightedCriticOptions } from "./dialectic/weighted-critic.js";
export { criticPanel, CRITIC_FOCUSES } from "./dialectic/critic-panel.js";
export {
  CriticEnsemble,
  aggregateCritiques,
  AggregateCritiqueSchema,
  MemberCritiqueSchema,
  ApprovalRuleSchema,
  type AggregateCritique,
  type MemberCritique,
  type ApprovalRule,
  type EnsembleVerdict,
  type AggregateOptions,
} from "./dialectic/critic-ensemble.js";
export {
  detectOscillation,
  OscillationPatternSchema,
  type OscillationPattern,
  type OscillationRound,
  type OscillationSettings,
} from "./dialectic/detect-oscillation.js";
export { isStalled } from "./dialectic/is-stalled.js";
export { EscapeStrategySchema, escapeStrategyFor, recurringIssues, constraintInjection, type EscapeStrategy } from "./dialectic/escape-strategy.js";
export { textSimilarity, normalizeText } from "./dialectic/text-similarity.js";
export { proposalHash } from "./dialectic/proposal-hash.js";
export {
  ConvergencePredictor,
  PredictorWeightsSchema,
  DEFAULT_PREDICTOR_WEIGHTS,
  type PredictorWeights,
  type PredictorRound,
  type ConvergencePredictorOptions,
  type ConvergenceExample,
  type ConvergenceFitOptions,
} from "./dialectic/convergence-predictor.js";

// The riddle curriculum: riddler, actor with N solvers and partners, critic, Gaussian reward, memories
export { RiddleSchema, SolverAnswerSchema, RiddleValiditySchema, AnswerGradeSchema, type Riddle, type SolverAnswer, type RiddleValidity, type AnswerGrade } from "./riddles/riddle-contracts.js";
export { RiddleConfigSchema, parseRiddleConfig, type RiddleConfig, type RiddleConfigInput } from "./riddles/riddle-config.js";
export { RiddleArtifactSchema, type RiddleArtifact } from "./riddles/riddle-artifact.js";
export { RiddleEpisodeOutcomeSchema, SolverRunSchema, type RiddleEpisodeOutcome, type SolverRun } from "./riddles/riddle-outcome.js";
export type { RiddleEpisodeHooks, RiddleProgress } from "./riddles/riddle-episode-hooks.js";
export { wilsonInterval, clearlyOutsideBand } from "./riddles/wilson-interval.js";
export { riddleSimilarity } from "./riddles/riddle-similarity.js";
export type { RiddleDomain } from "./riddles/domains/riddle-domain.js";
export { ArithmeticDomain, type ArithmeticDomainOptions } from "./tasks/arithmetic/arithmetic-riddle-domain.js";
export { FreeFormDomain, type FreeFormDomainOptions } from "./riddles/domains/free-form-domain.js";
export { createRiddleEpisodes, riddleEpisodeModule, type RiddleEpisodesOptions } from "./tasks/riddles/riddle-episodes.js";
export { runRiddleCurriculum, type RiddleCurriculumOptions, type RiddleCurriculumResult, type RiddleEpisodesFactory } from "./riddles/curriculum/run-riddle-curriculum.js";

// The dream cycle: sandboxed JavaScript challenges, quality gates, lessons and the playbook
export { runInSandbox } from "./dream/sandbox/run-in-sandbox.js";
export { SandboxOptionsSchema, type SandboxOptions } from "./dream/sandbox/sandbox-options.js";
export { SandboxResultSchema, type SandboxResult, type SandboxReason, type SandboxIsolation } from "./dream/sandbox/sandbox-result.js";
export { ChallengeSchema, challengeId, type Challenge } from "./dream/challenges/challenge.js";
export { runChallengeAttempt, type ChallengeAttemptResult } from "./dream/challenges/run-challenge-attempt.js";
export { createChallengeSandbox, type ChallengeSandboxOptions } from "./dream/challenges/create-challenge-sandbox.js";
export { CHALLENGE_TEMPLATES } from "./dream/templates/challenge-templates.js";
export type { ChallengeTemplate } from "./dream/templates/challenge-template.js";
export { pickTemplate } from "./dream/templates/pick-template.js";
export { renderTemplate } from "./dream/templates/render-template.js";
export { screenChallenge, type ChallengeScreening } from "./dream/gates/screen-challenge.js";
export { LessonSchema, type Lesson } from "./dream/lessons/lesson.js";
export { extractLesson, type LessonJudge } from "./dream/lessons/extract-lesson.js";
export { checkGeneralization, type GeneralizationVerdict } from "./dream/lessons/generalization-guard.js";
export { verifyLessonHelpful, type HelpfulRerun } from "./dream/lessons/verify-lesson-helpful.js";
export { Playbook, type PlaybookOptions } from "./dream/playbook/playbook.js";
export { ReadonlyPlaybook } from "./dream/playbook/readonly-playbook.js";
export { learnLesson, type LearnLessonOptions, type LearnLessonResult } from "./dream/playbook/learn-lesson.js";
export { FailedRunJournal } from "./dream/journal/failed-run-journal.js";
export { ReadonlyFailedRunJournal } from "./dream/journal/readonly-failed-run-journal.js";
export { mineJournal } from "./dream/journal/mine-journal.js";
export { DREAM_SOLVER_ROLE } from "./dream/solver/dream-solver-role.js";
export { clientDreamSolver, type DreamSolver } from "./dream/solver/dream-solver.js";
export { DreamWorkspace, type DreamWorkspaceOptions } from "./dream/cycle/dream-workspace.js";
export { runDreamCycle, type DreamCycleOptions } from "./dream/cycle/run-dream-cycle.js";
export type { DreamCycleRecord, DreamCycleStatus } from "./dream/cycle/dream-cycle-record.js";
export { runDreamLoop, type DreamLoopOptions, type DreamLoopResult } from "./dream/cycle/run-dream-loop.js";

// Tournaments: constitution kernels, the legality gate, agents, detectors, replay, exploits
export { Kernel } from "./tournament/kernel/kernel.js";
export { loadKernel, parseKernel } from "./tournament/kernel/load-kernel.js";
export { KernelParamsSchema, KernelDocumentSchema, type KernelParams, type KernelDocument, type Article } from "./tournament/kernel/kernel-schema.js";
export { LEGALITY_RULES, type LegalityRule } from "./tournament/kernel/legality-rules.js";
export { ActionSchema, ACTION_TYPES, parseAction, type Action, type ActionType } from "./tournament/world/actions.js";
export type { WorldState, CitizenState, Proposal, Ballot, Emergency } from "./tournament/world/world-state.js";
export type { TournamentEvent, TournamentEventType } from "./tournament/world/events.js";
export { TournamentWorld, WorldConfigSchema, type WorldConfig, type WorldConfigInput, type StepResult } from "./tournament/world/tournament-world.js";
export { checkLegality, type LegalityResult } from "./tournament/legality/check-legality.js";
export { playRounds, type PlayRoundsOptions } from "./tournament/play/play-rounds.js";
export type { TournamentAgent, AgentView } from "./tournament/agents/tournament-agent.js";
export { agentStream } from "./tournament/agents/agent-stream.js";
export { HonestAgent, type HonestAgentOptions } from "./tournament/agents/honest-agent.js";
export { createRedTeamAgent } from "./tournament/agents/red-team/create-red-team-agent.js";
export { searchRedTeam, type SearchRedTeamOptions, type SearchRedTeamResult } from "./tournament/search/search-red-team.js";
export { planSearchRedTeam, type SearchRedTeamPlan } from "./tournament/search/plan-search-red-team.js";
export { CAPTURE_OBJECTIVES, type CaptureObjective } from "./tournament/detectors/capture-objectives.js";
export { detectCaptures, captureProgress, type CaptureFinding, type CaptureProgress, type DetectionContext } from "./tournament/detectors/detect-captures.js";
export { episodeMetrics, type EpisodeMetrics, type EpisodeSides } from "./tournament/metrics/episode-metrics.js";
export { compareEpisodeMetrics, METRIC_ORDER } from "./tournament/metrics/compare-episode-metrics.js";
export { runTournament, type RunTournamentOptions, type TournamentResult } from "./tournament/tournament/run-tournament.js";
export { defaultRoster, RED_POLICIES, type RedPolicy, type EpisodeRoster, type TournamentRoster, type DefaultRosterOptions } from "./tournament/tournament/tournament-roster.js";
export { canonicalJson, eventLogHash } from "./tournament/replay/canonical-json.js";
export { parseTranscript, type Transcript } from "./tournament/replay/transcript.js";
export { replayTranscript, type ReplayOptions, type ReplayResult } from "./tournament/replay/replay-transcript.js";
export { shrinkTranscript, type ShrinkResult } from "./tournament/exploits/shrink-transcript.js";
export { ExploitRecordSchema, parseExploitRecord, type ExploitRecord } from "./tournament/exploits/exploit-record.js";
export { ExploitCandidateSchema, parseExploitCandidate, type ExploitCandidate } from "./tournament/exploits/exploit-candidate.js";
export { writeExploitCandidate } from "./tournament/exploits/write-exploit-candidate.js";
export { recordExploit, type RecordExploitOptions, type RecordExploitResult } from "./tournament/exploits/record-exploit.js";
export { verifyExploits, type ExploitVerification } from "./tournament/exploits/verify-exploits.js";
export { KernelFileError, UnknownActionError, KernelVersionMismatchError, ExploitRecordError } from "./tournament/errors/index.js";

// Errors
export {
  SelfplayError,
  InvalidInputError,
  UnknownKeyError,
  JudgeOutputError,
  StructuredOutputError,
  InvalidRewardError,
  CorruptJsonlError,
  type ErrorRecord,
} from "./core/errors/index.js";
export { UnknownEpisodeTypeError, UnknownRoleError, RolloutAbortedError } from "./arena/errors/index.js";
export { UnsupportedSchemaError, ScriptExhaustedError, InvalidModelFileError } from "./inference/errors/index.js";
export {
  GgufError,
  GgufFileNotFoundError,
  NotGgufError,
  UnsupportedGgufVersionError,
  TruncatedGgufError,
  CorruptGgufError,
  UnsupportedTensorTypeError,
  GgufTensorNotFoundError,
} from "./gguf/errors/index.js";
export { WasmOutOfMemoryError } from "./training/tfjs/errors/index.js";
