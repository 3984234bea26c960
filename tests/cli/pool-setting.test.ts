import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { PoolDefaultError } from "../../src/cli/errors/index.js";
import { describePoolSetting, resolvePoolSetting } from "../../src/cli/pool-setting.js";
import { poolDefaultFile } from "./pool-default-fixture.js";

/** A configuration folder holding `content` as pool-default.json (nothing when undefined). */
async function configFolder(content?: string) {
  const folder = await mkdtemp(join(tmpdir(), "selfplay-pool-setting-"));
  if (content !== undefined) await writeFile(join(folder, "pool-default.json"), content);
  return { environment: { SELFPLAY_CONFIG_DIR: folder }, path: join(folder, "pool-default.json") };
}

describe("resolvePoolSetting", () => {
  it("takes the flags first, the saved bench default next, in-process last, and says where each came from", async () => {
    const saved = await configFolder(JSON.stringify(poolDefaultFile({ workers: 2, engine: "per-worker" })));
    const flagged = await resolvePoolSetting({ workers: 1 }, saved);
    expect(flagged).toEqual({ workers: 1, engine: "shared", source: { kind: "flags" } });
    expect(describePoolSetting(flagged)).toBe("pool: 1 worker thread, one shared engine (from --workers)\n");
    const fromFile = await resolvePoolSetting({}, saved);
    expect(fromFile).toEqual({ workers: 2, engine: "per-worker", source: { kind: "saved", path: saved.path } });
    expect(describePoolSetting(fromFile)).toBe(`pool: 2 worker threads, an engine in each (this machine's default from \`selfplay bench pool --save\`, ${saved.path})\n`);
    const none = await configFolder();
    const builtIn = await resolvePoolSetting({}, none);
    expect(builtIn).toEqual({ workers: 0, engine: "shared", source: { kind: "built-in", path: none.path } });
    expect(describePoolSetting(builtIn)).toBe(`pool: in-process, no worker threads (built-in default; no ${none.path} (\`selfplay bench pool --save\` measures this machine))\n`);
    // --workers 0 overrides a saved pool.
    expect(await resolvePoolSetting({ workers: 0 }, saved)).toMatchObject({ workers: 0, source: { kind: "flags" } });
  });

  it("leaves the saved default alone when told why, and says so", async () => {
    const saved = await configFolder("not even JSON");
    const setting = await resolvePoolSetting({}, { ...saved, ignoreSavedDefault: "it is for the real engine" });
    expect(setting).toMatchObject({ workers: 0, source: { kind: "built-in", ignored: "it is for the real engine" } });
    expect(describePoolSetting(setting)).toBe("pool: in-process, no worker threads (built-in default; it is for the real engine)\n");
  });

  it("refuses per-worker engines without workers, and --pool-engine without --workers, naming the flag", async () => {
    const none = await configFolder();
    await expect(resolvePoolSetting({ workers: 0, poolEngine: "per-worker" }, none)).rejects.toThrow(
      /^--pool-engine: got "per-worker"; expected shared, or per-worker with --workers ≥ 1/,
    );
    await expect(resolvePoolSetting({ poolEngine: "shared" }, none)).rejects.toThrow(InvalidInputError);
    await expect(resolvePoolSetting({ poolEngine: "shared" }, none)).rejects.toThrow(/^--pool-engine: got "shared"; expected it together with --workers N/);
  });

  it("fails on a saved default that is not one, naming the file; with --workers the file is not read", async () => {
    const broken = await configFolder(JSON.stringify({ ...poolDefaultFile(), workers: 1.5 }));
    await expect(resolvePoolSetting({}, broken)).rejects.toThrow(PoolDefaultError);
    await expect(resolvePoolSetting({}, broken)).rejects.toThrow(`${broken.path}: is not a pool default (workers: `);
    // The flags win without reading the file.
    expect(await resolvePoolSetting({ workers: 2 }, broken)).toMatchObject({ workers: 2, source: { kind: "flags" } });
  });
});
