import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/cli-io.js";
import { runCli } from "../helpers/run-cli.js";

const scratch = () => mkdtempSync(join(tmpdir(), "selfplay-dream-cli-"));

describe("selfplay dream", () => {
  it.each([
    [["dream"], "--once"],
    [["dream", "--once", "--loop"], "--once"],
    [["dream", "--once", "--seed", "-1"], "--seed"],
    [["dream", "--once", "--idle-after", "5"], "--idle-after"],
    [["dream", "--loop", "--activity-file", "busy.log"], "--activity-file"],
    [["dream", "--once", "--model", "/nonexistent/model.gguf"], "--model"],
    [["dream", "--once", "--allow-missing", "namespaces,seatbelts"], "--allow-missing"],
  ])("exits 2 on %j naming %s, and writes nothing", async (argv, flag) => {
    const out = join(scratch(), "dream");
    const { code, stderr } = await runCli([...argv, "--out", out]);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toContain(flag);
    expect(existsSync(out)).toBe(false);
  });

  it("runs one engine cycle on the bundled base: a real template challenge, the tiny model's JavaScript fails, recorded in the journal and the frontier", async () => {
    const out = join(scratch(), "dream");
    const { code, stdout, stderr } = await runCli(["dream", "--once", "--out", out, "--seed", "3", "--json"]);
    // Nothing but the device line (auto: the CPU here).
    expect(stderr).toMatch(/^device: CPU \(.*\) — auto: ggml found no GPU\nengine: \d+-token context a sequence \(.*\), \d+ decode thread\(s\) \(.*\)\n$/);
    expect(code).toBe(EXIT.ok);
    const result = JSON.parse(stdout) as { stoppedBy: string; cycles: Array<{ status: string; source: string; attempts: unknown[]; challenge: { cluster: string } | null }> };
    expect(result.stoppedBy).toBe("max-cycles");
    const [cycle] = result.cycles;
    expect(cycle).toMatchObject({ status: "failed", source: "template" });
    expect(cycle?.attempts).toHaveLength(3);
    const journal = readFileSync(join(out, "journal.jsonl"), "utf8").trim().split("\n");
    expect(journal).toHaveLength(1);
    const frontier = JSON.parse(readFileSync(join(out, "frontier.json"), "utf8")) as { cycles: number; frontier: { histories: Record<string, { runs: number }> } };
    expect(frontier.cycles).toBe(1);
    expect(frontier.frontier.histories[cycle?.challenge?.cluster ?? ""]?.runs).toBe(1);
    expect(readFileSync(join(out, "cycles.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
    expect(readFileSync(join(out, "trajectories.jsonl"), "utf8").trim().split("\n")).toHaveLength(4);
  }, 120_000);

  it("--loop stops before a cycle when <out>/STOP exists, and says so", async () => {
    const out = scratch();
    writeFileSync(join(out, "STOP"), "");
    const { code, stdout } = await runCli(["dream", "--loop", "--out", out]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain("0 cycle(s), stopped by stop-file");
  }, 60_000);
});
