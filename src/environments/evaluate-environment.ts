import { SelfplayError } from "../core/errors/index.js";
import type { InferenceClient } from "../core/inference-client.js";
import type { Environment, EnvironmentEvaluateOptions, EnvironmentEvaluation } from "./environment.js";
import { EnvironmentModuleError } from "./errors/environment-module-error.js";

/**
 * The environment's held-out evaluation (undefined when it has none). What its own `evaluate` throws
 * (a TypeError in a user's module…) is an EnvironmentModuleError naming
 * `source`, with that error as its `cause` — class, message and stack intact;
 * a selfplay error it raises (a dataset's RewardFunctionError) is already
 * named and goes on as it is.
 */
export async function evaluateEnvironment(
  environment: Environment,
  client: InferenceClient,
  source: string,
  options?: EnvironmentEvaluateOptions,
): Promise<EnvironmentEvaluation | undefined> {
  try {
    return await environment.evaluate?.(client, options);
  } catch (error) {
    if (error instanceof SelfplayError) throw error;
    const thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new EnvironmentModuleError(source, `evaluate() threw ${thrown}; fix its evaluate (the cause below is its own error)`, { cause: error });
  }
}
