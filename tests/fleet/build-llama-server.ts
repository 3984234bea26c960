import { findLlamaCppTool } from "../../src/benchmarks/llama-cpp/find-llama-cpp-tool.js";

/**
 * The fleet project's global setup: llama-server built from node-llama-cpp's bundled llama.cpp source into the
 * user's cache, once per machine (about 15 minutes on 2 cores; a fresh clone on a machine that built it before finds it).
 */
export default async function buildLlamaServer(): Promise<void> {
  const started = performance.now();
  const path = await findLlamaCppTool("llama-server", { build: true });
  const seconds = (performance.now() - started) / 1000;
  if (seconds > 1) console.log(`built ${path} in ${seconds.toFixed(0)} s`);
}
