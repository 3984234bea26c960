import { InvalidInputError } from "../../core/errors/index.js";
import type { Environment } from "../../environments/environment.js";
import type { TrainingConfiguration } from "./training-configuration.js";

/**
 * The PRM and learnable frontiers weight clusters, and adaptive group sizing
 * sizes clustered groups: an environment that declares no clusters can only
 * draw uniformly, and one whose clustered prompts have no group (a plan
 * `groupSize` of 1 and no sub-episode groups) has no group to size.
 */
export function assertFrontierFits(environment: Environment, configuration: TrainingConfiguration): void {
  const { mode, groupSizing } = configuration.frontier;
  if (mode !== "uniform" && !environment.clusters) {
    throw new InvalidInputError("--frontier", `"uniform": the ${environment.name} environment declares no clusters for the frontier to weight`, mode);
  }
  if (groupSizing?.mode !== "adaptive") return;
  const { clusters } = environment;
  if (!clusters) throw new InvalidInputError("frontier.groupSizing.mode", `"off": the ${environment.name} environment declares no clusters to size groups by`, "adaptive");
  const grouped = clusters.subEpisodeGroups !== undefined || environment.plan.some((entry) => entry.episodeType === clusters.episodeType && (entry.groupSize ?? 1) > 1);
  if (!grouped) {
    throw new InvalidInputError("frontier.groupSizing.mode", `"off": the ${environment.name} environment's ${clusters.episodeType} prompts have no group to size (a plan groupSize of 1 and no clusters.subEpisodeGroups)`, "adaptive");
  }
}
