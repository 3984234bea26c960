import { UnknownEpisodeTypeError } from "./errors/index.js";
import { InvalidInputError } from "../core/errors/index.js";
import type { Episode } from "../core/episodes/episode.js";
import type { ArtifactStore } from "./artifact-store.js";

export interface RegisteredEpisode {
  episode: Episode;
  /** Where getBatch draws this episode's artifacts from, if anywhere. */
  store: ArtifactStore | undefined;
}

/** The episode types an arena can run, by name. */
export class EpisodeRegistry {
  private readonly entries = new Map<string, RegisteredEpisode>();

  register(episode: Episode, store?: ArtifactStore): void {
    if (this.entries.has(episode.type)) {
      throw new InvalidInputError("episode.type", `a type not registered yet`, episode.type);
    }
    this.entries.set(episode.type, { episode, store });
  }

  get(episodeType: string): RegisteredEpisode {
    const entry = this.entries.get(episodeType);
    if (!entry) throw new UnknownEpisodeTypeError(episodeType, this.types());
    return entry;
  }

  types(): string[] {
    return [...this.entries.keys()];
  }
}
