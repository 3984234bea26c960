import { loadEpisodeModule } from "../arena/pool/episode-module.js";
import type { Episode } from "../core/episodes/episode.js";
import { InvalidInputError } from "../core/errors/index.js";
import type { Environment } from "./environment.js";
import { EnvironmentModuleError } from "./errors/environment-module-error.js";

/**
 * The environment's episodes, checked against its plan and stores before
 * anything is written: an episode module that does not load, a plan or store
 * naming an episode type the module lacks, or a store item its episode's
 * `artifactSchema` refuses (every item, not only those a step happens to draw)
 * is an EnvironmentModuleError naming `source`.
 */
export async function environmentEpisodes(environment: Environment, source: string): Promise<Episode[]> {
  let episodes: Episode[];
  try {
    episodes = await loadEpisodeModule(environment.episodes);
  } catch (error) {
    throw new EnvironmentModuleError(source, `its episodes (${environment.episodes.module}) cannot be used: ${(error as Error).message}`);
  }
  const types = new Set(episodes.map((episode) => episode.type));
  const missing = [...environment.plan.map((entry) => entry.episodeType), ...Object.keys(environment.stores)].find((type) => !types.has(type));
  if (missing !== undefined) {
    throw new EnvironmentModuleError(source, `its plan or stores name the episode type "${missing}", which its episodes do not have (they have: ${[...types].join(", ") || "none"})`);
  }
  for (const episode of episodes) assertStoreFits(episode, environment, source);
  return episodes;
}

/** Every item of the episode's store through its `parseArtifact`; an episode without one (a plain object) takes any. */
function assertStoreFits(episode: Episode, environment: Environment, source: string): void {
  const store = environment.stores[episode.type];
  // Duck-typed: a user's module builds its episodes on its own copy of the Episode class.
  if (store === undefined || typeof (episode as Partial<Episode>).parseArtifact !== "function") return;
  const { entries } = store.snapshot();
  for (const [index, { artifact }] of entries.entries()) {
    try {
      episode.parseArtifact(artifact);
    } catch (error) {
      // A missing field reads `artifact.expected (episode "echo"): Invalid input: expected string, received undefined`.
      const reason = error instanceof InvalidInputError && error.received === undefined ? `${error.field}: ${error.allowed}` : (error as Error).message;
      throw new EnvironmentModuleError(
        source,
        `item ${index} of its "${episode.type}" store (of ${entries.length}) does not fit the episode's artifact schema: ${reason}; ` +
          `fix the data, or the episode's artifactSchema`,
      );
    }
  }
}
