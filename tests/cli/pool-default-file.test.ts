import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PoolDefaultError } from "../../src/cli/errors/index.js";
import { poolDefaultPath, readPoolDefault, writePoolDefault } from "../../src/cli/pool-default-file.js";
import { poolBenchResult, poolDefaultFile as validFile } from "./pool-default-fixture.js";

describe("the pool default file", () => {
  it("lives in $SELFPLAY_CONFIG_DIR, else an absolute $XDG_CONFIG_HOME/selfplay, else ~/.config/selfplay", () => {
    expect(poolDefaultPath({ SELFPLAY_CONFIG_DIR: "/etc/sp", XDG_CONFIG_HOME: "/xdg" })).toBe("/etc/sp/pool-default.json");
    expect(poolDefaultPath({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/selfplay/pool-default.json");
    expect(poolDefaultPath({ XDG_CONFIG_HOME: "relative" })).toBe(join(homedir(), ".config", "selfplay", "pool-default.json"));
    expect(poolDefaultPath({ SELFPLAY_CONFIG_DIR: "" })).toBe(join(homedir(), ".config", "selfplay", "pool-default.json"));
  });

  it("is written atomically into folders it creates, with the best cell's figures and a timestamp, and reads back", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "selfplay-pool-default-")), "a", "b", "pool-default.json");
    const measurement = poolBenchResult();
    const saved = await writePoolDefault(path, measurement, new Date("2026-11-21T21:30:00.000Z"));
    expect(saved).toEqual({ version: 1, workers: 2, engine: "shared", rolloutsPerSecond: 120, tokensPerSecond: 600, savedAt: "2026-11-21T21:30:00.000Z", measurement });
    expect(await readPoolDefault(path)).toEqual(saved);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(saved);
    // No temporary file is left beside it.
    expect(await readdir(join(path, ".."))).toEqual(["pool-default.json"]);
  });

  it("is absent without an error when there is no file", async () => {
    expect(await readPoolDefault(join(await mkdtemp(join(tmpdir(), "selfplay-pool-default-")), "pool-default.json"))).toBeUndefined();
  });

  it.each([
    ["not JSON", "{ workers: 2", /is not JSON/],
    ["another layout", JSON.stringify({ version: 2 }), /is not a pool default \(version: /],
    ["a negative worker count", JSON.stringify({ ...validFile(), workers: -1 }), /is not a pool default \(workers: /],
    ["per-worker engines without workers", JSON.stringify({ ...validFile(), workers: 0, engine: "per-worker" }), /is not a pool default \(engine: "per-worker" needs workers ≥ 1\)/],
    ["a misspelt key", JSON.stringify({ ...validFile(), workrs: 3 }), /is not a pool default \(workrs: unknown key; did you mean "workers"\?\)/],
    ["a measurement that is not one", JSON.stringify({ ...validFile(), measurement: { cells: [] } }), /is not a pool default \(measurement\./],
  ])("names the file and the fix when it holds %s", async (_case, content, problem) => {
    const path = join(await mkdtemp(join(tmpdir(), "selfplay-pool-default-")), "pool-default.json");
    await writeFile(path, content);
    const error = await readPoolDefault(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PoolDefaultError);
    expect((error as Error).message).toMatch(problem);
    expect((error as Error).message).toContain(`${path}: `);
    expect((error as Error).message).toMatch(/re-run `selfplay bench pool --save` to measure this machine again, or delete the file to run in-process$/);
  });
});
