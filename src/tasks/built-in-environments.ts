import type { JsonValue } from "../core/json.js";
import type { Environment } from "../environments/environment.js";
import { loadEnvironmentFrom, type EnvironmentRegistry } from "../environments/load-environment.js";
import { createArithmeticEnvironment } from "./arithmetic/arithmetic-environment.js";
import { createDatasetEnvironment } from "./dataset/dataset-environment.js";
import type { DatasetEnvironmentOptions } from "./dataset/dataset-environment-options.js";
import { createDebateEnvironment } from "./debate/debate-environment.js";
import { createDialecticEnvironment } from "./dialectic/dialectic-environment.js";
import { createDreamEnvironment } from "./dream/dream-environment.js";
import { createExactMatchEnvironment } from "./exact-match/exact-match-environment.js";
import { createProposerSolverEnvironment } from "./proposer-solver/proposer-solver-environment.js";
import { createRiddlesEnvironment } from "./riddles/riddles-environment.js";
import { createTicTacToeEnvironment } from "./tic-tac-toe/tic-tac-toe-environment.js";
import { createTournamentEnvironment } from "./tournament/tournament-environment.js";

/** The environments selfplay ships, by the name `--env` takes: one per task folder. */
export const BUILT_IN_ENVIRONMENTS: EnvironmentRegistry = {
  arithmetic: createArithmeticEnvironment,
  debate: createDebateEnvironment,
  dialectic: createDialecticEnvironment,
  "proposer-solver": createProposerSolverEnvironment,
  "exact-match": createExactMatchEnvironment,
  tournament: createTournamentEnvironment,
  riddles: createRiddlesEnvironment,
  dream: createDreamEnvironment,
  "tic-tac-toe": createTicTacToeEnvironment,
  // Its JSON options (a config file's `environment`, `--data FILE`); reward functions come from code (createDatasetEnvironment).
  dataset: (options) => createDatasetEnvironment((options ?? {}) as unknown as DatasetEnvironmentOptions),
};

/** A built-in environment by name, or a module path exporting `createEnvironment(options)`: see loadEnvironmentFrom. */
export function loadEnvironment(name: string, options?: JsonValue): Promise<Environment> {
  return loadEnvironmentFrom(BUILT_IN_ENVIRONMENTS, name, options);
}
