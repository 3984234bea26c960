// The environment contract: what a task hands the training loop, and loading one from a module.
export type { Environment, EnvironmentClusters, EnvironmentEvaluation, EnvironmentEvaluateOptions, EvaluationOpponent, ClusterStepOutcome, EnvironmentFactory } from "./environment.js";
export { loadEnvironmentFrom, ENVIRONMENT_FACTORY_EXPORT, type EnvironmentRegistry } from "./load-environment.js";
export { DroppedRolloutError, EnvironmentModuleError } from "./errors/index.js";
