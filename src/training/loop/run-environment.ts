import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonValue } from "../../core/json.js";
import { findTrainingCheckpoint } from "./training-checkpoint-files.js";

/** The environment a run was trained on: what `loadEnvironment` takes to make it again. */
export interface RunEnvironment {
  /** A built-in environment's name, or the module path it was loaded from. */
  name: string;
  /** The environment's options as the run had them (`configuration.environment`). */
  options: JsonValue | undefined;
}

/**
 * The environment of the training run in `directory`, from its newest
 * complete checkpoint (every checkpoint of a run records the same one). A
 * folder without one is an error that says to name the environment.
 */
export async function runEnvironment(directory: string): Promise<RunEnvironment> {
  const { checkpoint, ignored } = await findTrainingCheckpoint(directory);
  if (!checkpoint) {
    const reasons = ignored.map(({ path, reason }) => `${path}: ${reason}`).join("; ");
    throw new InvalidInputError(
      "--env",
      `the environment that made the rollouts in ${directory}: it has no complete checkpoint of selfplay train (checkpoints/step-<k>.json${reasons ? `; ${reasons}` : ""}) to tell which; pass --env NAME or --env ./module.js`,
    );
  }
  return { name: checkpoint.environment.module ?? checkpoint.environment.name, options: checkpoint.configuration.environment };
}
