import { deriveStream, type RandomStream } from "../../core/random/random-stream.js";

/** The seeded stream of one citizen's agent in one episode: (tournament seed, episode index, citizen id), nothing else. */
export function agentStream(tournamentSeed: number, episodeIndex: number, citizen: string): RandomStream {
  return deriveStream(tournamentSeed, "tournament", "episode", String(episodeIndex), "citizen", citizen);
}
