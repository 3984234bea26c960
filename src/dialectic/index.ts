// Dialectic: proposer/critic self-play with convergence and oscillation handling (the `selfplay/dialectic` entry).
export { DialecticEpisode, DialecticArtifactSchema, type DialecticEpisodeOptions, type DialecticArtifact, type TrainableCriticOptions, type CheckResult } from "./dialectic-episode.js";
export { DialecticSettingsSchema, type DialecticSettings, type DialecticSettingsInput } from "./dialectic-settings.js";
export { DialecticOutcomeSchema, DialecticStateSchema, type DialecticOutcome, type DialecticState } from "./dialectic-outcome.js";
export { DialecticRoundSchema, type DialecticRound } from "./dialectic-round.js";
export { runDialecticLoop, type DialecticPorts, type DialecticTask } from "./run-dialectic-loop.js";
export { DialecticVerifier, type DialecticVerifierOptions } from "./dialectic-verifier.js";
export { proposerReward, criticAgreementReward } from "./dialectic-rewards.js";
export { CritiqueSchema, CRITIQUE_LIMITS, type Critique } from "./critique.js";
export { parseCritique } from "./parse-critique.js";
export { WeightedCritiqueSchema, AspectWeightsSchema, DEFAULT_ASPECT_WEIGHTS, type WeightedCritique, type AspectScores, type AspectWeights } from "./weighted-critique.js";
export { DEFAULT_CRITIC_SAMPLER, type Critic, type CriticOptions, type StructuredAsk } from "./critic.js";
export { StandardCritic } from "./standard-critic.js";
export { WeightedCritic, type WeightedCriticOptions } from "./weighted-critic.js";
export { criticPanel, CRITIC_FOCUSES } from "./critic-panel.js";
export { CriticEnsemble, aggregateCritiques, AggregateCritiqueSchema, MemberCritiqueSchema, ApprovalRuleSchema, type AggregateCritique, type MemberCritique, type ApprovalRule, type EnsembleVerdict, type AggregateOptions } from "./critic-ensemble.js";
export { detectOscillation, OscillationPatternSchema, type OscillationPattern, type OscillationRound, type OscillationSettings } from "./detect-oscillation.js";
export { EscapeStrategySchema, escapeStrategyFor, type EscapeStrategy } from "./escape-strategy.js";
export { ConvergencePredictor, PredictorWeightsSchema, DEFAULT_PREDICTOR_WEIGHTS, type PredictorWeights, type PredictorRound, type ConvergencePredictorOptions, type ConvergenceExample, type ConvergenceFitOptions } from "./convergence-predictor.js";
