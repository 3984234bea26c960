import { LlamaCppToolError } from "../../src/core/errors.js";
import { findLlamaCppTool } from "../llama-cpp/find-llama-cpp-tool.js";
import { runBatchedBench, type BatchedBenchOptions } from "../llama-cpp/run-batched-bench.js";
import type { RolloutCell } from "./rollout-bench-result.js";

export type LlamaCppMeasurement = Pick<RolloutCell, "llamaCpp" | "llamaCppGenerationOnly" | "llamaCppReason">;

/**
 * llama-batched-bench on a cell's configuration; the tool is built first when
 * `build` allows it. A missing or failing tool is reported in the cell, with
 * the reason, rather than failing the whole benchmark.
 */
export async function measureLlamaCpp(options: Omit<BatchedBenchOptions, "toolPath"> & { build: boolean }): Promise<LlamaCppMeasurement> {
  try {
    const toolPath = await findLlamaCppTool("llama-batched-bench", { build: options.build });
    const row = await runBatchedBench({ ...options, toolPath });
    return { llamaCpp: Math.round(row.tokensPerSecond), llamaCppGenerationOnly: Math.round(row.generationTokensPerSecond) };
  } catch (error) {
    if (!(error instanceof LlamaCppToolError)) throw error;
    return { llamaCpp: null, llamaCppGenerationOnly: null, llamaCppReason: error.message };
  }
}
