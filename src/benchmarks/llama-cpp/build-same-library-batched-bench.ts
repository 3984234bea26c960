import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { checkOutSource, loggedStep } from "./build-llama-cpp-tools.js";
import type { LlamaCppRelease } from "./llama-cpp-release.js";

const TOOL = "llama-batched-bench (same library)";
const COMPILE_TIMEOUT_MILLISECONDS = 10 * 60 * 1000;

/** llama-batched-bench compiled against one libllama: the program, and the folder it must run in. */
export interface SameLibraryTool {
  toolPath: string;
  /**
   * The library's folder. Builds with one CPU backend per instruction set
   * (node-llama-cpp's prebuilt binaries) load the backend at run time from
   * the working folder, which picks the variant node-llama-cpp picks.
   */
  workingFolder: string;
}

/** One compile per library and process. */
const builds = new Map<string, Promise<SameLibraryTool>>();

/**
 * llama.cpp's `llama-batched-bench`, compiled from the release's source
 * (the tool's two files only: seconds) and linked to the libllama at
 * `libraryPath` and its neighbours — the library our native loop runs on.
 * Our `llama-batched-bench` build (`findLlamaCppTool`) is tuned for this
 * CPU; node-llama-cpp's prebuilt library is portable, so against it the
 * ratio measures the build as well as our loop. This one measures the loop.
 * Cached under `<release folder>/same-library/<hash of the library folder>/`.
 */
export function sameLibraryBatchedBench(libraryPath: string, release: LlamaCppRelease): Promise<SameLibraryTool> {
  let build = builds.get(libraryPath);
  if (build === undefined) {
    build = buildSameLibraryBatchedBench(libraryPath, release);
    builds.set(libraryPath, build);
    // A failure is reported to every cell of this run, then retried by the next run.
  }
  return build;
}

async function buildSameLibraryBatchedBench(libraryPath: string, release: LlamaCppRelease): Promise<SameLibraryTool> {
  const libraryFolder = dirname(libraryPath);
  const folder = join(release.folder, "same-library", createHash("sha256").update(libraryFolder).digest("hex").slice(0, 12));
  const toolPath = join(folder, "llama-batched-bench");
  if (existsSync(toolPath)) return { toolPath, workingFolder: libraryFolder };
  await mkdir(folder, { recursive: true });
  const log = join(folder, "build.log");
  await writeFile(log, `linked to ${libraryPath}\n`);
  const step = loggedStep(log, TOOL);
  const source = await checkOutSource(release, step);
  const partial = `${toolPath}.partial`;
  await step(
    process.env.CXX ?? "c++",
    [
      "-O2", "-std=c++17",
      ...["common", "include", join("ggml", "include"), "vendor"].map((include) => `-I${join(source, include)}`),
      join(source, "tools", "batched-bench", "batched-bench.cpp"),
      join(source, "tools", "batched-bench", "main.cpp"),
      "-o", partial,
      `-L${libraryFolder}`,
      ...(await linkedLibraries(libraryPath)).map((name) => `-l:${name}`),
      `-Wl,-rpath,${libraryFolder}`,
      "-lpthread",
    ],
    `compiling llama-batched-bench against ${libraryPath}`,
    COMPILE_TIMEOUT_MILLISECONDS,
  );
  await rename(partial, toolPath);
  return { toolPath, workingFolder: libraryFolder };
}

/**
 * What the tool links to: the library, the common library built beside it,
 * and ggml's libraries there — not the per-instruction-set CPU backends
 * (`libggml-cpu-<variant>.so`), which ggml loads itself.
 */
async function linkedLibraries(libraryPath: string): Promise<string[]> {
  const names = await readdir(dirname(libraryPath));
  const ggml = names.filter((name) => /^libggml[.-].*\.so$/.test(name) && !/^libggml-cpu-.+\.so$/.test(name));
  const common = names.filter((name) => /^libllama-common.*\.so$|^libcommon.*\.so$/.test(name));
  return [...common, basename(libraryPath), ...ggml.sort()];
}
