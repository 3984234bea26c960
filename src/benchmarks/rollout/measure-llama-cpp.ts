import { LlamaCppToolError } from "../errors/index.js";
import { loadNativeAddon } from "../../inference/native/load-native-addon.js";
import { sameLibraryBatchedBench } from "../llama-cpp/build-same-library-batched-bench.js";
import { findLlamaCppTool } from "../llama-cpp/find-llama-cpp-tool.js";
import { bundledLlamaCppRelease } from "../llama-cpp/llama-cpp-release.js";
import { runBatchedBench, type BatchedBenchOptions } from "../llama-cpp/run-batched-bench.js";
import type { RolloutCell } from "./rollout-bench-result.js";

export type LlamaCppMeasurement = Pick<RolloutCell, "llamaCpp" | "llamaCppGenerationOnly" | "llamaCppReason" | "llamaCppSameLibrary" | "llamaCppSameLibraryReason">;

type CellOptions = Omit<BatchedBenchOptions, "toolPath" | "workingFolder"> & { build: boolean };

/**
 * llama-batched-bench on a cell's configuration, twice: our build of it
 * (tuned for this CPU; built first when `build` allows it) and the same
 * program linked to the library our native loop runs on. A missing or
 * failing tool is reported in the cell, with the reason, rather than failing
 * the whole benchmark.
 */
export async function measureLlamaCpp(options: CellOptions): Promise<LlamaCppMeasurement> {
  const [own, sameLibrary] = [await measureOwnBuild(options), await measureSameLibrary(options)];
  return { ...own, ...sameLibrary };
}

async function measureOwnBuild(options: CellOptions): Promise<Pick<LlamaCppMeasurement, "llamaCpp" | "llamaCppGenerationOnly" | "llamaCppReason">> {
  try {
    const toolPath = await findLlamaCppTool("llama-batched-bench", { build: options.build });
    const row = await runBatchedBench({ ...options, toolPath });
    return { llamaCpp: Math.round(row.tokensPerSecond), llamaCppGenerationOnly: Math.round(row.generationTokensPerSecond) };
  } catch (error) {
    if (!(error instanceof LlamaCppToolError)) throw error;
    return { llamaCpp: null, llamaCppGenerationOnly: null, llamaCppReason: error.message };
  }
}

async function measureSameLibrary(options: CellOptions): Promise<Pick<LlamaCppMeasurement, "llamaCppSameLibrary" | "llamaCppSameLibraryReason">> {
  const addon = await loadNativeAddon("cpu");
  if (addon.binding === undefined) return { llamaCppSameLibrary: null, llamaCppSameLibraryReason: `the native loop is not available: ${addon.reason}` };
  try {
    const { toolPath, workingFolder } = await sameLibraryBatchedBench(addon.libraryPath, bundledLlamaCppRelease());
    const row = await runBatchedBench({ ...options, toolPath, workingFolder });
    return { llamaCppSameLibrary: Math.round(row.tokensPerSecond) };
  } catch (error) {
    if (!(error instanceof LlamaCppToolError)) throw error;
    return { llamaCppSameLibrary: null, llamaCppSameLibraryReason: error.message };
  }
}
