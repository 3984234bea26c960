import { InvalidInputError } from "../../core/errors/index.js";
import type { Environment } from "../../environments/environment.js";
import type { TrainingConfiguration } from "./training-configuration.js";

/** The PRM-weighted frontier weights clusters: an environment that declares none can only draw uniformly. */
export function assertFrontierFits(environment: Environment, configuration: TrainingConfiguration): void {
  if (configuration.frontier.mode === "prm" && !environment.clusters) {
    throw new InvalidInputError("--frontier", `"uniform": the ${environment.name} environment declares no clusters for the frontier to weight`, "prm");
  }
}
