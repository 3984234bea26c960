import { InvalidInputError } from "../../core/errors/index.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import type { EpisodeRequest } from "../../core/schemas/episode-request.js";
import type { Environment, EnvironmentClusters } from "../../environments/environment.js";

/** How many prompts a step draws of the clustered episode type: the count of its plan entries. */
export function clusteredPromptCount(environment: Environment, clusters: EnvironmentClusters): number {
  return environment.plan.filter((entry) => entry.episodeType === clusters.episodeType).reduce((sum, entry) => sum + entry.count, 0);
}

/**
 * The requests of the plan's clustered entries, their prompts' clusters
 * given in plan order (`chosen`, `clusteredPromptCount` of them): an artifact
 * of each cluster drawn from the store by `artifactRandom`, repeated
 * `groupSize` times under the group id `<groupPrefix>.<entry>.<prompt>`.
 */
export function clusteredRequests(environment: Environment, clusters: EnvironmentClusters, chosen: readonly string[], artifactRandom: RandomStream, groupPrefix: string): EpisodeRequest[] {
  const store = environment.stores[clusters.episodeType];
  const requests: EpisodeRequest[] = [];
  let next = 0;
  for (const [entryIndex, entry] of environment.plan.entries()) {
    if (entry.episodeType !== clusters.episodeType) continue;
    for (let prompt = 0; prompt < entry.count; prompt++) {
      const cluster = chosen[next++] as string;
      const artifact = store?.sampleWhere(artifactRandom, (candidate) => clusters.of(candidate) === cluster)?.artifact;
      if (store && artifact === undefined) throw new InvalidInputError(`clusters.names`, `clusters that the ${entry.episodeType} store has artifacts of`, cluster);
      const groupSize = entry.groupSize ?? 1;
      const groupId = groupSize > 1 ? `${groupPrefix}.${entryIndex}.${prompt}` : undefined;
      for (let member = 0; member < groupSize; member++) {
        requests.push({ episodeType: entry.episodeType, ...(artifact !== undefined && { artifact }), ...(groupId !== undefined && { groupId }) });
      }
    }
  }
  return requests;
}
