import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { ClusterStepOutcome, EnvironmentClusters } from "../../environments/environment.js";
import { clusterOutcomesByReward } from "./cluster-outcomes-by-reward.js";

/** What a step's results showed about each cluster: the environment's own reading, or `clusterOutcomesByReward`. */
export function clusterStepOutcomes(results: readonly GenerateResult[], clusters: EnvironmentClusters): ClusterStepOutcome[] {
  return clusters.outcomes ? clusters.outcomes(results) : clusterOutcomesByReward(results, clusters);
}
