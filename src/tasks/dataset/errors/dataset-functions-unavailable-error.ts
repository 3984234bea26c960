import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A pool worker cannot get a dataset environment's prompt and reward
 * functions: they are not JSON, so a worker makes them again by importing the
 * module that made the environment, and none is known.
 */
export class DatasetFunctionsUnavailableError extends SelfplayError {
  override readonly name = "DatasetFunctionsUnavailableError";
  constructor(readonly environment: string) {
    super(
      `the dataset environment "${environment}" was made outside an environment module, so pool workers cannot get its reward functions: ` +
        "train it with --env ./my-env.js (a module exporting createEnvironment), give createDatasetEnvironment a " +
        "`source: { module: import.meta.url }` whose createEnvironment makes it, or run in-process (--workers 0)",
    );
  }
}
