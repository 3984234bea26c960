import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");

/** The README's "Layout" map: the text block under that heading. */
function layoutMap(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Layout"));
  const block = /```text\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README.md: the Layout section has no ```text map");
  return block;
}

describe("the README's layout map", () => {
  const map = layoutMap();

  it("names every top-level folder the repository tracks", () => {
    const tracked = new Set(
      execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
        .split("\n")
        .filter((path) => path.includes("/"))
        .map((path) => path.slice(0, path.indexOf("/"))),
    );
    expect(tracked.size).toBeGreaterThan(5);
    const missing = [...tracked].filter((folder) => !new RegExp(`^${folder.replace(".", "\\.")}/`, "m").test(map));
    expect(missing, `add them to README.md's Layout map: ${missing.join(", ")}`).toEqual([]);
  });

  it("names every folder under src/", () => {
    const folders = readdirSync(join(root, "src"), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const missing = folders.filter((folder) => !new RegExp(`(^|\\s)${folder}/`, "m").test(map));
    expect(missing, `add them to README.md's Layout map: ${missing.join(", ")}`).toEqual([]);
  });

  it("the README stays a front door: at most 300 lines", () => {
    expect(readFileSync(join(root, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(300);
  });
});
