import { existsSync } from "node:fs";
import { join } from "node:path";
import { LlamaCppToolError } from "../errors/index.js";
import { buildLlamaCppTools, type LlamaCppTool } from "./build-llama-cpp-tools.js";
import { bundledLlamaCppRelease, type LlamaCppRelease } from "./llama-cpp-release.js";

export interface FindLlamaCppToolOptions {
  /**
   * When the tool is not built yet: true builds every benchmark tool from
   * the release's source (once; minutes on 2 cores), false throws
   * LlamaCppToolError saying how to build it.
   */
  build: boolean;
  /** Which source and cache folder. Default: the release node-llama-cpp bundles (`bundledLlamaCppRelease`). */
  release?: LlamaCppRelease;
}

/** One build per cache folder and process, whichever tool asked first: a failed build is not retried for the next cell. */
const builds = new Map<string, Promise<void>>();

/** The path of a llama.cpp tool built from the same release node-llama-cpp runs. */
export async function findLlamaCppTool(tool: LlamaCppTool, options: FindLlamaCppToolOptions): Promise<string> {
  const release = options.release ?? bundledLlamaCppRelease();
  const path = join(release.folder, "bin", tool);
  if (existsSync(path)) return path;
  if (!options.build) {
    throw new LlamaCppToolError(tool, `not built yet; run the benchmark once without --quick to build it into ${release.folder} (minutes)`);
  }
  let build = builds.get(release.folder);
  if (build === undefined) {
    build = buildLlamaCppTools(release);
    builds.set(release.folder, build);
  }
  await build;
  return path;
}
