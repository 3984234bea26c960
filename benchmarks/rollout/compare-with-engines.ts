import type { ReplayOptions } from "./decode-request.js";
import { measureLlamaCpp, type LlamaCppMeasurement } from "./measure-llama-cpp.js";
import { measureNativeLoop } from "./measure-native-loop.js";
import { measureNodeLlamaCppLoop } from "./measure-node-llama-cpp-loop.js";
import type { RolloutCell } from "./rollout-bench-result.js";

export interface EngineComparisonOptions extends ReplayOptions {
  /** Generated tokens/s of the arena rollouts the requests come from. */
  ours: number;
  /** The shape llama-batched-bench decodes: every sequence with this prompt and this many generated tokens. */
  promptTokens: number;
  generatedTokens: number;
  /** Build llama-batched-bench if it is not built yet (minutes). */
  buildTools: boolean;
}

/**
 * The engines' side of a cell: our native loop and node-llama-cpp replaying
 * the arena's requests, llama.cpp decoding the same shape (our CPU-tuned build
 * of its tool, and the same tool on the library our loop runs on), and ours
 * over each.
 */
export async function compareWithEngines(options: EngineComparisonOptions): Promise<Pick<RolloutCell, "ours" | "nativeLoop" | "nodeLlamaCpp" | "ratio" | "sameLibraryRatio"> & LlamaCppMeasurement> {
  const { modelPath, sequences, threads, mode, contextPerSequence, rounds } = options;
  const nativeLoop = await measureNativeLoop(options);
  const nodeLlamaCpp = await measureNodeLlamaCppLoop(options);
  const llamaCpp = await measureLlamaCpp({
    modelPath,
    promptTokens: options.promptTokens,
    generatedTokens: options.generatedTokens,
    sequences,
    threads,
    mode,
    contextPerSequence,
    rounds,
    build: options.buildTools,
  });
  const ours = Math.round(options.ours);
  return {
    ours,
    nativeLoop: Math.round(nativeLoop),
    ...llamaCpp,
    nodeLlamaCpp: Math.round(nodeLlamaCpp),
    ratio: llamaCpp.llamaCpp === null ? null : Number((ours / llamaCpp.llamaCpp).toFixed(3)),
    sameLibraryRatio: llamaCpp.llamaCppSameLibrary === null ? null : Number((ours / llamaCpp.llamaCppSameLibrary).toFixed(3)),
  };
}
