import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findLlamaCppTool } from "../../../src/benchmarks/llama-cpp/find-llama-cpp-tool.js";
import { bundledLlamaCppRelease } from "../../../src/benchmarks/llama-cpp/llama-cpp-release.js";
import { userCacheFolder } from "../../../src/core/user-cache-folder.js";
import { LlamaCppToolError } from "../../../src/benchmarks/errors/index.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-llama-cpp-tools-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("findLlamaCppTool", () => {
  it("knows node-llama-cpp's bundled release and caches under llama.cpp-<tag> in the user's cache", () => {
    const release = bundledLlamaCppRelease();
    expect(release.tag).toMatch(/\S/);
    expect(release.bundlePath).toMatch(/node-llama-cpp[/\\]llama[/\\]gitRelease\.bundle$/);
    expect(release.folder).toBe(join(userCacheFolder(), `llama.cpp-${release.tag}`));
  });

  it("finds the user's cache folder from SELFPLAY_CACHE_DIR, then XDG_CACHE_HOME, then the home folder", () => {
    expect(userCacheFolder({ SELFPLAY_CACHE_DIR: "/srv/cache", XDG_CACHE_HOME: "/x" })).toBe("/srv/cache");
    expect(userCacheFolder({ XDG_CACHE_HOME: "/x" })).toBe(join("/x", "selfplay"));
    expect(userCacheFolder({})).toBe(join(homedir(), ".cache", "selfplay"));
  });

  it("returns a built tool's path without building anything", async () => {
    const release = { tag: "test", bundlePath: join(folder, "none.bundle"), folder: join(folder, "built") };
    await mkdir(join(release.folder, "bin"), { recursive: true });
    await writeFile(join(release.folder, "bin", "llama-finetune"), "");
    await expect(findLlamaCppTool("llama-finetune", { build: true, release })).resolves.toBe(join(release.folder, "bin", "llama-finetune"));
  });

  it("does not build when told not to, and says how to build", async () => {
    const release = { tag: "test", bundlePath: join(folder, "none.bundle"), folder: join(folder, "empty") };
    const found = findLlamaCppTool("llama-batched-bench", { build: false, release });
    await expect(found).rejects.toThrow(LlamaCppToolError);
    await expect(found).rejects.toThrow(/^llama-batched-bench: not built yet; run the benchmark once without --quick .*\(minutes\)$/);
  });

  it("names the step that failed and keeps its log when a build cannot start", async () => {
    const release = { tag: "test", bundlePath: join(folder, "missing.bundle"), folder: join(folder, "broken") };
    await expect(findLlamaCppTool("llama-batched-bench", { build: true, release })).rejects.toThrow(
      /reading node-llama-cpp's llama\.cpp bundle failed.*\(log: .*build\.log\); a C\+\+17 compiler, cmake ≥ 3\.14 and git are needed/,
    );
    expect(await readFile(join(release.folder, "build.log"), "utf8")).toContain("git bundle list-heads");
  });
});
