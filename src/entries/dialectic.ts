// The `selfplay/dialectic` entry. Dialectic: proposer/critic self-play with convergence and oscillation handling.
export {
  DialecticEpisode, DialecticArtifactSchema, type DialecticEpisodeOptions, type DialecticArtifact,
  type TrainableCriticOptions, type CheckResult, DialecticSettingsSchema, type DialecticSettings,
  type DialecticSettingsInput, DialecticOutcomeSchema, DialecticStateSchema, type DialecticOutcome,
  type DialecticState, DialecticRoundSchema, type DialecticRound, runDialecticLoop, type DialecticPorts,
  type DialecticTask, DialecticVerifier, type DialecticVerifierOptions, proposerReward, criticAgreementReward,
  CritiqueSchema, CRITIQUE_LIMITS, type Critique, parseCritique, WeightedCritiqueSchema, AspectWeightsSchema,
  DEFAULT_ASPECT_WEIGHTS, type WeightedCritique, type AspectScores, type AspectWeights, DEFAULT_CRITIC_SAMPLER,
  type Critic, type CriticOptions, type StructuredAsk, StandardCritic, WeightedCritic, type WeightedCriticOptions,
  criticPanel, CRITIC_FOCUSES, CriticEnsemble, aggregateCritiques, AggregateCritiqueSchema, MemberCritiqueSchema,
  ApprovalRuleSchema, type AggregateCritique, type MemberCritique, type ApprovalRule, type EnsembleVerdict,
  type AggregateOptions, detectOscillation, OscillationPatternSchema, type OscillationPattern, type OscillationRound,
  type OscillationSettings, EscapeStrategySchema, escapeStrategyFor, type EscapeStrategy, ConvergencePredictor,
  PredictorWeightsSchema, DEFAULT_PREDICTOR_WEIGHTS, type PredictorWeights, type PredictorRound,
  type ConvergencePredictorOptions, type ConvergenceExample, type ConvergenceFitOptions
} from "../dialectic/index.js";
