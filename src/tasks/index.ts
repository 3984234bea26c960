// The built-in tasks: each one's environment factory and options, and the episodes and pieces a user reuses.
export { loadEnvironment, BUILT_IN_ENVIRONMENTS } from "./built-in-environments.js";
export { createArithmeticEnvironment, ArithmeticEnvironmentOptionsSchema, type ArithmeticEnvironmentOptions } from "./arithmetic/arithmetic-environment.js";
export { createProposerSolverEnvironment, ProposerSolverEnvironmentOptionsSchema, type ProposerSolverEnvironmentOptions } from "./proposer-solver/proposer-solver-environment.js";
export { createExactMatchEnvironment, ExactMatchEnvironmentOptionsSchema, type ExactMatchEnvironmentOptions } from "./exact-match/exact-match-environment.js";
export { createDebateEnvironment, DebateEnvironmentOptionsSchema, type DebateEnvironmentOptions } from "./debate/debate-environment.js";
export { createDialecticEnvironment, DialecticEnvironmentOptionsSchema, DIALECTIC_TASKS, type DialecticEnvironmentOptions } from "./dialectic/dialectic-environment.js";
export { DebateEpisode, DebateEpisodeOptionsSchema, DEBATE_TOPICS, type DebateEpisodeOptions, type DebateArtifact } from "./debate/debate-episode.js";
export { ProposerEpisode, ARITHMETIC_TOPICS, PROPOSER_ROLE, type ProposerEpisodeOptions, type ProposeArtifact } from "./proposer-solver/proposer-episode.js";
export { SolverEpisode, SOLVER_ROLE, type SolveArtifact, type SolverEpisodeOptions } from "./proposer-solver/solver-episode.js";
export { ArithmeticDomain, type ArithmeticDomainOptions } from "./arithmetic/arithmetic-riddle-domain.js";
export { createRiddleEpisodes, riddleEpisodeModule, type RiddleEpisodesOptions } from "./riddles/riddle-episodes.js";
export { createDreamEnvironment, DreamEnvironmentOptionsSchema, type DreamEnvironmentOptions } from "./dream/dream-environment.js";
export { createRiddlesEnvironment } from "./riddles/riddles-environment.js";
export {
  RiddlesEnvironmentOptionsSchema,
  type RiddlesEnvironmentOptions,
  type RiddlesEnvironmentOptionsInput,
} from "./riddles/riddles-environment-options.js";
export { createTicTacToeEnvironment, TicTacToeEnvironmentOptionsSchema, type TicTacToeEnvironmentOptions } from "./tic-tac-toe/tic-tac-toe-environment.js";
export { createTournamentEnvironment, TournamentEnvironmentOptionsSchema, type TournamentEnvironmentOptions } from "./tournament/tournament-environment.js";
export { evaluateArithmetic, type ArithmeticExample, type ArithmeticEvaluation, type EvaluateArithmeticOptions } from "./arithmetic/evaluate-arithmetic.js";
export { createDatasetEnvironment } from "./dataset/dataset-environment.js";
export { DatasetEnvironmentOptionsSchema, type DatasetEnvironmentOptions } from "./dataset/dataset-environment-options.js";
export type { RewardFunction, WeightedReward, RewardInput } from "./dataset/dataset-rubric.js";
export { readDataset, type DatasetFormat } from "./dataset/read-dataset.js";
export { RewardFunctionError, DatasetFunctionsUnavailableError } from "./dataset/errors/index.js";
