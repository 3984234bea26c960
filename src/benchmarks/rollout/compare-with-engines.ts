import type { DecodeRequest } from "./decode-request.js";
import { measureLlamaCpp } from "./measure-llama-cpp.js";
import { measureNativeLoop } from "./measure-native-loop.js";
import { measureNodeLlamaCppLoop } from "./measure-node-llama-cpp-loop.js";
import type { RolloutCell } from "./rollout-bench-result.js";

/** What a cell is, as it is reported: the configuration and the lengths our rollouts had. */
export type CellDescription = Pick<RolloutCell, "shape" | "preset" | "threads" | "sequences" | "mode" | "promptTokens" | "generatedTokens">;

export interface EngineComparisonOptions {
  cell: CellDescription;
  modelPath: string;
  /** Our arena's requests, which the native loop and node-llama-cpp replay. */
  requests: readonly DecodeRequest[];
  contextPerSequence: number;
  rounds: number;
  /** Generated tokens/s of the arena rollouts the requests come from. */
  ours: number;
  /** The shape llama-batched-bench decodes: every sequence with this prompt and this many generated tokens (whole numbers). */
  llamaCppShape: { promptTokens: number; generatedTokens: number };
  /** Build llama-batched-bench if it is not built yet (minutes). */
  buildTools: boolean;
}

/**
 * A whole cell: our native loop and node-llama-cpp replaying the arena's
 * requests, llama.cpp decoding the same shape (our CPU-tuned build of its
 * tool, and the same tool on the library our loop runs on), and ours over each.
 */
export async function compareWithEngines(options: EngineComparisonOptions): Promise<RolloutCell> {
  const { cell, modelPath, requests, contextPerSequence, rounds } = options;
  const settings = { modelPath, sequences: cell.sequences, threads: cell.threads, mode: cell.mode, contextPerSequence, rounds };
  const nativeLoop = await measureNativeLoop({ ...settings, requests });
  const nodeLlamaCpp = await measureNodeLlamaCppLoop({ ...settings, requests });
  const llamaCpp = await measureLlamaCpp({ ...settings, ...options.llamaCppShape, build: options.buildTools });
  const ours = Math.round(options.ours);
  return {
    ...cell,
    ours,
    nativeLoop: Math.round(nativeLoop),
    ...llamaCpp,
    nodeLlamaCpp: Math.round(nodeLlamaCpp),
    ratio: llamaCpp.llamaCpp === null ? null : Number((ours / llamaCpp.llamaCpp).toFixed(3)),
    sameLibraryRatio: llamaCpp.llamaCppSameLibrary === null ? null : Number((ours / llamaCpp.llamaCppSameLibrary).toFixed(3)),
  };
}
