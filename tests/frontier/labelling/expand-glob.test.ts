import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { expandGlob } from "../../../src/frontier/labelling/expand-glob.js";

describe("expandGlob", () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "selfplay-glob-"));
    for (const file of ["a.jsonl", "b.jsonl", "notes.txt", ".hidden.jsonl", "runs/1/labels.jsonl", "runs/2/labels.jsonl", "runs/2/deep/x/labels.jsonl"]) {
      await mkdir(join(root, file, ".."), { recursive: true });
      await writeFile(join(root, file), "");
    }
    // A link cycle: following it would never end.
    await symlink(root, join(root, "runs", "loop"));
  });

  it("matches * and ? within a segment, not a leading dot", async () => {
    expect(await expandGlob(join(root, "*.jsonl"))).toEqual([join(root, "a.jsonl"), join(root, "b.jsonl")]);
    expect(await expandGlob(join(root, "?.jsonl"))).toEqual([join(root, "a.jsonl"), join(root, "b.jsonl")]);
    expect(await expandGlob(join(root, ".*.jsonl"))).toEqual([join(root, ".hidden.jsonl")]);
    expect(await expandGlob(join(root, "runs/*/labels.jsonl"))).toEqual([join(root, "runs/1/labels.jsonl"), join(root, "runs/2/labels.jsonl")]);
  });

  it("matches any number of folders with **, none included, without following links", async () => {
    expect(await expandGlob(join(root, "runs/**/labels.jsonl"))).toEqual([
      join(root, "runs/1/labels.jsonl"),
      join(root, "runs/2/deep/x/labels.jsonl"),
      join(root, "runs/2/labels.jsonl"),
    ]);
    expect((await expandGlob(join(root, "**/*.jsonl"))).length).toBe(5);
  });

  it("names a plain path when it is a file, and nothing otherwise", async () => {
    expect(await expandGlob(join(root, "a.jsonl"))).toEqual([join(root, "a.jsonl")]);
    expect(await expandGlob(join(root, "missing.jsonl"))).toEqual([]);
    expect(await expandGlob(join(root, "runs"))).toEqual([]);
    expect(await expandGlob(join(root, "nowhere/*.jsonl"))).toEqual([]);
  });
});
