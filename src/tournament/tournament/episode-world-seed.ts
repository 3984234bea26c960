import { deriveStream } from "../../core/random/random-stream.js";

/** Largest turn-order seed a world accepts (WorldConfigSchema). */
const MAX_WORLD_SEED = 2 ** 31 - 1;

/** The seed of episode `episodeIndex`'s world (its turn orders): from the tournament seed and the index alone. */
export function episodeWorldSeed(tournamentSeed: number, episodeIndex: number): number {
  return deriveStream(tournamentSeed, "tournament", "episode", String(episodeIndex), "world").uint32() % (MAX_WORLD_SEED + 1);
}
