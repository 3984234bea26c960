import type { JsonValue } from "../../core/json.js";
import type { Environment } from "../../environments/environment.js";
import { createDatasetEnvironment } from "./dataset-environment.js";
import type { DatasetEnvironmentOptions } from "./dataset-environment-options.js";

/**
 * The environment module of a dataset environment made from JSON options alone (`--env dataset --data FILE`, the
 * built-in exact-match reward): pool workers import it to make the same environment, and so the same reward
 * function, in their thread.
 */
export function createEnvironment(options: JsonValue | undefined): Promise<Environment> {
  return createDatasetEnvironment((options ?? {}) as unknown as DatasetEnvironmentOptions);
}
