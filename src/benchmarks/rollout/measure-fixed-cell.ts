import { ArtifactStore } from "../../arena/artifact-store.js";
import { BenchmarkMismatchError } from "../errors/index.js";
import type { DecodeMode } from "./decode-settings.js";
import { compareWithEngines } from "./compare-with-engines.js";
import { decodeRequestsOf } from "./decode-request.js";
import { FixedLengthEpisode } from "./fixed-length-episode.js";
import { measureArenaRollouts } from "./measure-arena-rollouts.js";
import type { RolloutCell } from "./rollout-bench-result.js";

export interface FixedCellOptions {
  preset: "tiny" | "medium" | "file";
  modelPath: string;
  threads: number;
  sequences: number;
  mode: DecodeMode;
  /** Characters of each user message; the plain prompt format adds 17 (`user: `, `\nassistant:`), one token a byte on the byte models (fewer on a BPE vocabulary, more with a chat template). */
  promptCharacters: number;
  generatedTokens: number;
  contextPerSequence: number;
  /** Timed rounds of every measurement; the fastest counts. */
  rounds: number;
  /** Build llama-batched-bench if it is not built yet (minutes). */
  buildTools: boolean;
}

/** A user message of exactly `characters` ASCII characters, different for every index. */
function promptText(index: number, characters: number): string {
  return `${index} `.padEnd(characters, "abcdefghijklmnopqrstuvwxyz").slice(0, characters);
}

/**
 * One fixed-shape cell: `sequences` rollouts of one prompt each, every
 * completion forced to `generatedTokens`, through the arena; then the native
 * loop, node-llama-cpp and llama.cpp on the same lengths and settings.
 */
export async function measureFixedCell(options: FixedCellOptions): Promise<RolloutCell> {
  const { modelPath, sequences, threads, mode, contextPerSequence, rounds } = options;
  const arena = await measureArenaRollouts({
    engine: { modelPath, sequences, threads, mode, contextPerSequence },
    episodes: [{ episode: new FixedLengthEpisode(options.generatedTokens), store: ArtifactStore.of(Array.from({ length: sequences }, (_, index) => ({ prompt: promptText(index, options.promptCharacters) }))) }],
    plan: [{ episodeType: "fixed-length", count: sequences }],
    concurrency: sequences,
    rounds,
  });
  const requests = decodeRequestsOf(arena.steps);
  const promptTokens = requests[0]?.promptTokenIds.length ?? 0;
  if (requests.some((request) => request.generatedTokens !== options.generatedTokens || request.promptTokenIds.length !== promptTokens)) {
    throw new BenchmarkMismatchError(`fixed-length rollouts came back with uneven lengths (${requests.map((request) => `${request.promptTokenIds.length}+${request.generatedTokens}`).join(", ")}): the comparison would not be like for like`);
  }
  const { generatedTokens } = options;
  return compareWithEngines({
    cell: { shape: "fixed", preset: options.preset, threads, sequences, mode, promptTokens, generatedTokens },
    modelPath,
    requests,
    contextPerSequence,
    rounds,
    ours: arena.tokensPerSecond,
    llamaCppShape: { promptTokens, generatedTokens },
    buildTools: options.buildTools,
  });
}
