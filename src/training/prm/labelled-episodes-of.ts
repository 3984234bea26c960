import { loadEpisodeModule } from "../../arena/pool/episode-module.js";
import type { LabelledEpisode } from "../../frontier/labelling/labelled-episode.js";
import type { LabelledEpisodes } from "../../frontier/labelling/labelled-episodes.js";
import type { Environment } from "../../environments/environment.js";

/**
 * What `selfplay prm label` reads an environment's rollouts with: each
 * labelled episode type (`labelledEpisodeTypes`, default all) with its
 * trainable roles (not those of `frozenRoles`) and its own verifier, and
 * the clusters — the environment's cluster of each artifact of its
 * clustered type, which the sub-episodes of those rollouts inherit; with no
 * clusters, one per episode type.
 */
export async function labelledEpisodesOf(environment: Environment): Promise<LabelledEpisodes> {
  const labelled = environment.labelledEpisodeTypes === undefined ? undefined : new Set(environment.labelledEpisodeTypes);
  const frozen = new Set(Object.keys(environment.frozenRoles ?? {}));
  const byType: Record<string, LabelledEpisode> = {};
  for (const episode of await loadEpisodeModule(environment.episodes)) {
    if (labelled && !labelled.has(episode.type)) continue;
    // A role bound to a frozen policy is not learned, whatever its Role says: the loop gives it no records either.
    const roleIds = episode.roles.filter((role) => role.trainable && !frozen.has(role.id)).map((role) => role.id);
    if (roleIds.length > 0) byType[episode.type] = { roleIds, verifier: episode.verifier };
  }
  const { clusters } = environment;
  return {
    byType,
    clusterOf: (rollout) => (clusters && rollout.episodeType === clusters.episodeType ? clusters.of(rollout.artifact) : undefined),
  };
}
