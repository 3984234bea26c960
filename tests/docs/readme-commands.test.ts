import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";

const root = resolve(import.meta.dirname, "..", "..");

describe("the README's commands", () => {
  it("shows every command of the CLI as `selfplay <command>`", async () => {
    let help = "";
    await main(["--help"], { io: { stdout: (text) => (help += text), stderr: () => undefined, isTerminal: false } });
    const commands = [...help.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((match) => match[1] as string).filter((name) => name !== "help");
    expect(commands.length).toBeGreaterThan(15);
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(commands.filter((command) => !new RegExp(`selfplay ${command}(?![\\w-])`).test(readme))).toEqual([]);
  });
});
