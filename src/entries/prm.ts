// The `selfplay/prm` entry. Process reward models: scoring, featurisers, labelling, metrics, the frontier tracker, and PRM training
// (which loads tfjs when this entry is imported).
export {
  PrmStateSchema, PrmExampleSchema, type PrmState, type PrmExample, type PrmScorer, OnnxPrmScorer,
  type OnnxPrmScorerOptions, type Featuriser, FeaturiserSettingsSchema, HashedNgramSettingsSchema,
  EmbeddingSettingsSchema, type FeaturiserSettings, type HashedNgramSettings, type EmbeddingSettings,
  HashedNgramFeaturiser, type HashedNgramFeaturiserOptions, EmbeddingFeaturiser, type TextEmbedder,
  PrmMetadataSchema, PrmNetworkShapeSchema, PrmTrainingSummarySchema, PRM_FILES, type PrmMetadata,
  type PrmNetworkShape, type PrmTrainingSummary, readPrmMetadata, readPrmExamples, type PrmExamples,
  areaUnderRocCurve, brierScore, expectedCalibrationError, clusterPriorScores, type ClusterLabel, prmMetrics,
  PrmMetricsSchema, type PrmMetrics, FrontierTracker, type FrontierTrackerOptions, type FrontierSignals,
  FrontierSettingsSchema, type FrontierSettings, type FrontierSettingsInput, ClusterOutcomeSchema,
  type ClusterOutcome, type ClusterStats, FrontierDecisionSchema, FrontierReasonSchema, FrontierFallbackSchema,
  FRONTIER_TARGET_HINT, type FrontierDecision, type FrontierReason, type FrontierFallback,
  FrontierTrackerSnapshotSchema, type FrontierTrackerSnapshot, openPrmScorer, type OpenPrmScorer, labelTrajectories,
  type LabelTrajectoriesOptions, type LabelledTrajectories, prmTrajectories, type PrmTrajectory,
  readRolloutTrajectories, type RolloutTrajectories, trajectoryPrefixes, type TrajectoryPrefix,
  type TrajectoryPrefixesOptions, type LabelledEpisode, type LabelledEpisodes, MultiTurnEpisodeError,
  LearnableFrontier, type LearnableFrontierOptions, type LearnableDecision, type LearnableReason, LearnableSettingsSchema,
  type LearnableSettings, type LearnableSettingsInput, ClusterPassRates, ClusterPassRatesSnapshotSchema,
  type ClusterPassRatesSnapshot, type ClusterAttempts, PassRateWindowSettingsSchema, type PassRateWindowSettings,
  type PassRateWindowSettingsInput, GroupSizingSettingsSchema, type GroupSizingSettings, type GroupSizingSettingsInput,
  groupSizeForPassRate, type GroupSizeBounds
} from "../frontier/index.js";
export {
  trainPrm, type TrainPrmOptions, type TrainedPrm, PrmTrainingConfigurationSchema, type PrmTrainingConfiguration,
  type PrmTrainingConfigurationInput, type PrmWeights, savePrm, loadPrm
} from "../training/prm/index.js";
