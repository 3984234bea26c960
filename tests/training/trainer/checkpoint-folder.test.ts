import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { checkpointFilePath, checkpointManifestPath, parseCheckpointFileName } from "../../../src/training/trainer/checkpoint-paths.js";
import { commitCheckpoint } from "../../../src/training/trainer/commit-checkpoint.js";
import { findLatestCheckpoint } from "../../../src/training/trainer/find-latest-checkpoint.js";

const ManifestSchema = z.object({ step: z.number().int(), note: z.string() });
const complete = async () => undefined;

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-checkpoints-"));
});

describe("commitCheckpoint and findLatestCheckpoint", () => {
  it("finds nothing in a folder without checkpoints, or without the folder at all", async () => {
    expect(await findLatestCheckpoint(directory, ManifestSchema, complete)).toEqual({ checkpoint: undefined, ignored: [] });
    expect(await findLatestCheckpoint(join(directory, "missing"), ManifestSchema, complete)).toEqual({ checkpoint: undefined, ignored: [] });
  });

  it("keeps only the newest checkpoint, its files, and no temporary file", async () => {
    await commitCheckpoint(directory, 1, { step: 1, note: "one" });
    await writeFile(checkpointFilePath(directory, 1, "optimizer.gguf"), "x");
    await writeFile(checkpointFilePath(directory, 2, "optimizer.gguf"), "y");
    await writeFile(`${checkpointFilePath(directory, 2, "optimizer.gguf")}.0a1b2c.tmp`, "half");
    await writeFile(join(directory, "checkpoints", "notes.txt"), "not ours");
    await commitCheckpoint(directory, 2, { step: 2, note: "two" });
    expect((await readdir(join(directory, "checkpoints"))).sort()).toEqual(["notes.txt", "step-2.json", "step-2.optimizer.gguf"]);
    expect(await findLatestCheckpoint(directory, ManifestSchema, complete)).toEqual({ checkpoint: { step: 2, note: "two" }, ignored: [] });
  });

  it("passes over torn, invalid and incomplete manifests to the newest complete one, and says why", async () => {
    await commitCheckpoint(directory, 10, { step: 10, note: "good" });
    await writeFile(checkpointManifestPath(directory, 13), '{"step":13,"no');
    await writeFile(checkpointManifestPath(directory, 12), JSON.stringify({ step: "twelve", note: "x" }));
    await writeFile(checkpointManifestPath(directory, 11), JSON.stringify({ step: 11, note: "files missing" }));
    const found = await findLatestCheckpoint(directory, ManifestSchema, async (manifest) => (manifest.step === 11 ? "its optimizer state is missing" : undefined));
    expect(found.checkpoint).toEqual({ step: 10, note: "good" });
    expect(found.ignored.map((entry) => [entry.path, entry.reason.replace(/\(.*\)/, "(…)")])).toEqual([
      [checkpointManifestPath(directory, 13), "not readable JSON (…)"],
      [checkpointManifestPath(directory, 12), "step: Invalid input: expected number, received string"],
      [checkpointManifestPath(directory, 11), "its optimizer state is missing"],
    ]);
  });

  it("orders steps as numbers, not as text", async () => {
    await mkdir(join(directory, "checkpoints"));
    for (const step of [9, 10, 100]) await writeFile(checkpointManifestPath(directory, step), JSON.stringify({ step, note: "" }));
    expect((await findLatestCheckpoint(directory, ManifestSchema, complete)).checkpoint?.step).toBe(100);
  });

  it("names files step-<k>.<what>", () => {
    expect(checkpointFilePath("run", 7, "optimizer.gguf")).toBe(join("run", "checkpoints", "step-7.optimizer.gguf"));
    expect(parseCheckpointFileName("step-12.json")).toEqual({ step: 12, rest: "json" });
    expect(parseCheckpointFileName("step-x.json")).toBeUndefined();
  });
});
