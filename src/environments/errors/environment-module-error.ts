import { SelfplayError } from "../../core/errors/index.js";

/**
 * An environment (`selfplay train --env`) cannot be used: an unknown name, a
 * module that does not load, lacks its factory, returns something that is
 * not an environment, or throws while making it or evaluating. The message
 * names the module and what to fix; what the module's own code threw is the
 * `cause`, its class, message and stack intact.
 */
export class EnvironmentModuleError extends SelfplayError {
  override readonly name = "EnvironmentModuleError";
  constructor(
    readonly module: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`environment ${module}: ${problem}`, options);
  }
}
