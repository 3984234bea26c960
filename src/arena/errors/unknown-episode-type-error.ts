import { SelfplayError } from "../../core/errors/index.js";

/** An EpisodeRequest names an episode type that was never registered with the arena. */
export class UnknownEpisodeTypeError extends SelfplayError {
  override readonly name = "UnknownEpisodeTypeError";
  constructor(readonly episodeType: string, registered: readonly string[]) {
    super(
      `unknown episode type "${episodeType}"; register it with arena.register() first ` +
        `(registered: ${registered.length === 0 ? "none" : registered.join(", ")})`,
    );
  }
}
