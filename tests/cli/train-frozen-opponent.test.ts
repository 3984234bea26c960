import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";

describe("selfplay train --env debate with a frozen opponent", () => {
  it("exits 2 with pool workers, saying to run in-process, and writes nothing", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-frozen-"));
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ steps: 1, environment: { opponent: "base" } }));
    let stderr = "";
    const out = join(folder, "run");
    const code = await main(["train", "--env", "debate", "--config", config, "--workers", "1", "--out", out], {
      io: { stdout: () => undefined, stderr: (text) => void (stderr += text), isTerminal: false },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/pool\.workers: got 1; expected 0 \(--workers 0\): the debate environment binds roles to frozen policies/);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ["league", /configuration\.opponents: got "league"; expected "current": the arithmetic environment binds no role to a frozen policy/],
    ["everyone", /--opponents.*one of: current, frozen, league/],
  ])("exits 2 for --opponents %s on an environment without a frozen role, and writes nothing", async (opponents, message) => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-opponents-"));
    let stderr = "";
    const out = join(folder, "run");
    const code = await main(["train", "--env", "arithmetic", "--steps", "1", "--opponents", opponents, "--out", out], {
      io: { stdout: () => undefined, stderr: (text) => void (stderr += text), isTerminal: false },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });
});
