import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/core/write-file-atomic.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-write-atomic-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("writes a string and leaves no temporary file behind", async () => {
    const path = join(directory, "state.json");
    await writeFileAtomic(path, '{"step":1}\n');
    expect(await readFile(path, "utf8")).toBe('{"step":1}\n');
    expect(await readdir(directory)).toEqual(["state.json"]);
  });

  it("writes bytes exactly", async () => {
    const path = join(directory, "blob.bin");
    const bytes = new Uint8Array([0, 255, 10, 13, 128, 7]);
    await writeFileAtomic(path, bytes);
    expect(new Uint8Array(await readFile(path))).toEqual(bytes);
  });

  it("writes an empty file", async () => {
    const path = join(directory, "empty");
    await writeFileAtomic(path, "");
    expect(await readFile(path, "utf8")).toBe("");
  });

  it("replaces existing content, also with shorter content", async () => {
    const path = join(directory, "state.json");
    await writeFile(path, "a much longer old content");
    await writeFileAtomic(path, "new");
    expect(await readFile(path, "utf8")).toBe("new");
    expect(await readdir(directory)).toEqual(["state.json"]);
  });

  it("lets concurrent readers see only whole old or whole new contents", async () => {
    const path = join(directory, "state.txt");
    const old = "o".repeat(1 << 20);
    await writeFile(path, old);
    const versions = Array.from({ length: 8 }, (_, index) => String.fromCharCode(97 + index).repeat((index + 1) << 17));
    const seen: string[] = [];
    await Promise.all(
      versions.flatMap((content) => [
        writeFileAtomic(path, content),
        readFile(path, "utf8").then((text) => seen.push(text)),
      ]),
    );
    for (const text of seen) expect([old, ...versions]).toContain(text);
    expect(versions).toContain(await readFile(path, "utf8"));
    expect(await readdir(directory)).toEqual(["state.txt"]);
  });

  it("rejects when the directory does not exist, creating nothing", async () => {
    await expect(writeFileAtomic(join(directory, "missing", "state.json"), "x")).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect(await readdir(directory)).toEqual([]);
  });

  it("removes its temporary file when the rename fails", async () => {
    const path = join(directory, "taken");
    await mkdir(path); // renaming a file over a directory fails
    await expect(writeFileAtomic(path, "content")).rejects.toThrow();
    expect(await readdir(directory)).toEqual(["taken"]);
    expect(await readdir(path)).toEqual([]);
  });
});
