import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

describe("the files the repository tracks", () => {
  it("hold no symbolic link: a worktree's links to a checkout's node_modules, build or .cache must never be committed", () => {
    // `git ls-files -s` gives mode 120000 for a symlink; a clone would get a link into somebody else's folder.
    const links = execFileSync("git", ["ls-files", "-s"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((line) => line.startsWith("120000 "))
      .map((line) => line.split("\t")[1]);
    expect(links).toEqual([]);
  });
});
