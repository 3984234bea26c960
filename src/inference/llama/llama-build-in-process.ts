import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LlamaGpuType } from "node-llama-cpp";

/**
 * The node-llama-cpp build (its `gpu` option: false for the CPU binaries, "cuda", "vulkan" …) whose libllama this
 * process has loaded already, from any thread; undefined when none has, or where /proc/self/maps cannot be read
 * (not Linux). Worker threads have module state of their own but share the process's libraries, and the native
 * addon binds to one libllama per process: a worker must take the build the process holds.
 */
export function llamaBuildInProcess(): LlamaGpuType | undefined {
  if (process.platform !== "linux" || !existsSync("/proc/self/maps")) return undefined;
  let maps: string;
  try {
    maps = readFileSync("/proc/self/maps", "utf8");
  } catch {
    return undefined;
  }
  const library = maps
    .split("\n")
    .map((line) => line.slice(line.indexOf("/")))
    .find((path) => /\/libllama[^/]*\.so[^/]*$/.test(path) && !path.includes("libllama-common"));
  if (library === undefined) return undefined;
  try {
    const metadata = JSON.parse(readFileSync(join(dirname(library), "_nlcBuildMetadata.json"), "utf8")) as { buildOptions?: { gpu?: LlamaGpuType } };
    return metadata.buildOptions?.gpu;
  } catch {
    return undefined;
  }
}
