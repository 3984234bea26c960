import { SelfplayError } from "../../core/errors/index.js";

/**
 * An environment (`selfplay train --env`) cannot be used: an unknown name, a
 * module that does not load, lacks its factory, returns something that is
 * not an environment, or throws while making it. The message names the
 * module and what to fix.
 */
export class EnvironmentModuleError extends SelfplayError {
  override readonly name = "EnvironmentModuleError";
  constructor(
    readonly module: string,
    readonly problem: string,
  ) {
    super(`environment ${module}: ${problem}`);
  }
}
