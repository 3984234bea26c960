import { existsSync } from "node:fs";
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LlamaCppToolError } from "../errors/index.js";
import type { LlamaCppRelease } from "./llama-cpp-release.js";
import { runProcess } from "./run-process.js";

/** The llama.cpp executables selfplay runs (the benchmarks; llama-server for fleets and their tests), by their CMake target names in the bundled source. */
export const LLAMA_CPP_TOOLS = ["llama-batched-bench", "llama-finetune", "llama-server"] as const;
export type LlamaCppTool = (typeof LLAMA_CPP_TOOLS)[number];

// Far above a normal build (~15 minutes on 2 busy cores): a stuck compiler must not hang a benchmark forever.
const BUILD_TIMEOUT_MILLISECONDS = 2 * 60 * 60 * 1000;
const QUICK_TIMEOUT_MILLISECONDS = 10 * 60 * 1000;

/**
 * Checks the bundled source out into `<folder>/source`, configures a CPU-only
 * Release build tuned for this machine (no OpenSSL: llama-server speaks plain
 * HTTP, put TLS in front of it), builds only selfplay's targets (2 jobs) and copies them into `<folder>/bin`. Every step is logged to
 * `<folder>/build.log`. The source's commit marker and each binary are written
 * last (by rename), so an interrupted build is resumed, never half-used.
 */
export async function buildLlamaCppTools(release: LlamaCppRelease): Promise<void> {
  const log = join(release.folder, "build.log");
  await mkdir(release.folder, { recursive: true });
  await writeFile(log, "");
  const step = loggedStep(log, LLAMA_CPP_TOOLS.join(", "));

  const source = await checkOutSource(release, step);
  const build = join(release.folder, "build");
  await step(
    "cmake",
    ["-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DGGML_NATIVE=ON", "-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_OPENSSL=OFF",
      "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_SERVER=ON", "-DLLAMA_BUILD_APP=OFF", "-DGGML_CUDA=OFF", "-DGGML_VULKAN=OFF", "-DGGML_METAL=OFF"],
    "configuring llama.cpp",
    QUICK_TIMEOUT_MILLISECONDS,
  );
  await step("cmake", ["--build", build, "--config", "Release", "--target", ...LLAMA_CPP_TOOLS, "-j", "2"], "building llama.cpp", BUILD_TIMEOUT_MILLISECONDS);
  await mkdir(join(release.folder, "bin"), { recursive: true });
  for (const tool of LLAMA_CPP_TOOLS) {
    const built = join(build, "bin", tool);
    if (!existsSync(built)) throw new LlamaCppToolError(tool, `the build finished without ${built} (log: ${log})`);
    const partial = join(release.folder, "bin", `${tool}.partial`);
    await copyFile(built, partial);
    await rename(partial, join(release.folder, "bin", tool));
  }
}

/** Runs one command of a build; its output is appended to the build's log, and a failure names the step and the log. */
export type Step = (command: string, args: string[], what: string, timeoutMilliseconds: number) => Promise<string>;

/** A `Step` logging to `log`; its errors are `tool`'s. */
export function loggedStep(log: string, tool: string): Step {
  return async (command, args, what, timeoutMilliseconds) => {
    const outcome = await runProcess(command, args, { timeoutMilliseconds });
    await appendFile(log, `$ ${command} ${args.join(" ")}\n${outcome.stdout}${outcome.stderr}\n`);
    if (outcome.error !== undefined) {
      throw new LlamaCppToolError(tool, `${what} needs \`${command}\`, which could not be run (${outcome.error.message}); install it and run again`);
    }
    if (outcome.status !== 0) {
      const firstError = `${outcome.stdout}\n${outcome.stderr}`.split("\n").find((line) => /error/i.test(line));
      throw new LlamaCppToolError(
        tool,
        `${what} failed${firstError === undefined ? "" : `: ${firstError.trim()}`} (log: ${log}); a C++17 compiler, cmake ≥ 3.14 and git are needed`,
      );
    }
    return outcome.stdout;
  };
}

/** `<folder>/source` at the bundle's commit; `.selfplay-commit` in it is written last, so a torn checkout is redone. */
export async function checkOutSource(release: LlamaCppRelease, step: Step): Promise<string> {
  const source = join(release.folder, "source");
  const marker = join(source, ".selfplay-commit");
  const heads = await step("git", ["bundle", "list-heads", release.bundlePath], "reading node-llama-cpp's llama.cpp bundle", QUICK_TIMEOUT_MILLISECONDS);
  const commit = heads.trim().split(/\s+/)[0] ?? "";
  if (existsSync(marker) && (await readFile(marker, "utf8")).trim() === commit) return source;
  await rm(source, { recursive: true, force: true });
  const repository = await mkdtemp(join(tmpdir(), "selfplay-llama-source-"));
  try {
    await step("git", ["init", "--quiet", "--bare", repository], "checking out llama.cpp", QUICK_TIMEOUT_MILLISECONDS);
    await step("git", [`--git-dir=${repository}`, "fetch", "--quiet", release.bundlePath, commit], "checking out llama.cpp", QUICK_TIMEOUT_MILLISECONDS);
    await mkdir(source, { recursive: true });
    await step("git", [`--git-dir=${repository}`, `--work-tree=${source}`, "checkout", "--force", commit, "--", "."], "checking out llama.cpp", QUICK_TIMEOUT_MILLISECONDS);
  } finally {
    await rm(repository, { recursive: true, force: true });
  }
  await writeFile(marker, `${commit}\n`);
  return source;
}
