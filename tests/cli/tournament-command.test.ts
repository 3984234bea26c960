import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/cli-io.js";
import { main } from "../../src/cli/program.js";
import { parseExploitCandidate } from "../../src/tournament/exploits/exploit-candidate.js";

/** Runs `selfplay …` through the whole program (its error handling included) with a fixed clock. */
async function runCli(argv: string[], now = new Date(Date.UTC(2026, 10, 24, 0, 30))) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTerminal: false };
  const code = await main(argv, { io, now: () => now });
  return { code, stdout, stderr };
}

const scratch = () => mkdtempSync(join(tmpdir(), "selfplay-tournament-"));

describe("selfplay tournament", () => {
  it("writes report.json, report.md and events.jsonl; the same seed gives a byte-identical report.json", async () => {
    const [first, second] = [join(scratch(), "a"), join(scratch(), "b")];
    const flags = ["--kernel", "constitutions/constitution-0.2.0.yaml", "--seed", "42", "--episodes", "4", "--rounds", "6"];
    const run = await runCli(["tournament", ...flags, "--out", first]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toContain(`wrote ${join(first, "report.json")}`);
    // Another clock, another folder: the report does not change.
    expect((await runCli(["tournament", ...flags, "--out", second], new Date(Date.UTC(2030, 0, 1)))).code).toBe(EXIT.ok);
    const report = readFileSync(join(first, "report.json"));
    expect(readFileSync(join(second, "report.json")).equals(report)).toBe(true);
    const parsed = JSON.parse(report.toString("utf8"));
    expect(parsed).toMatchObject({ format: "selfplay-tournament-report/1", kernel: { version: "0.2.0" }, seed: 42, episodes: 4, rounds: 6 });
    expect(report.toString("utf8")).not.toMatch(/202\d|203\d/);
    expect(readFileSync(join(first, "report.md"), "utf8")).toContain("# Tournament under kernel 0.2.0");

    const lines = readFileSync(join(first, "events.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines.length).toBe(parsed.episodeResults.reduce((sum: number, episode: { events: number }) => sum + episode.events, 0));
    expect(new Set(lines.map((line) => line.episode))).toEqual(new Set([0, 1, 2, 3]));
    expect(lines[0]).toMatchObject({ episode: 0, seq: 0 });
  });

  it("names the default folder by the injected clock only", async () => {
    const cwd = process.cwd();
    const folder = scratch();
    const kernel = join(cwd, "constitutions/constitution-0.2.0.yaml");
    process.chdir(folder);
    try {
      expect((await runCli(["tournament", "--kernel", kernel, "--seed", "1", "--episodes", "1", "--rounds", "1"])).code).toBe(EXIT.ok);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(join(folder, "runs"))).toEqual(["tournament-2026-11-24T00-30-00-000Z"]);
  });

  it("writes an exploit candidate for each finding the search makes under 0.1.0, and --json prints the report", async () => {
    const out = join(scratch(), "run");
    const { code, stdout } = await runCli(["tournament", "--kernel", "constitutions/constitution-0.1.0.yaml", "--seed", "1", "--episodes", "3", "--rounds", "5", "--red-policy", "search", "--out", out, "--json"]);
    expect(code).toBe(EXIT.ok);
    const report = JSON.parse(stdout);
    const findings = Object.values(report.findingsByObjective as Record<string, unknown[]>).flat().length;
    expect(findings).toBeGreaterThan(0);
    const files = readdirSync(join(out, "exploit-candidates")).sort();
    expect(files.length).toBe(findings);
    for (const file of files) {
      const path = join(out, "exploit-candidates", file);
      const candidate = parseExploitCandidate(JSON.parse(readFileSync(path, "utf8")), path);
      expect(candidate).toMatchObject({ kind: "exploit-candidate", redTeam: ["c0", "c2"], foundBy: { searchSeed: 1 } });
      expect(file).toBe(`episode-${candidate.foundBy.episode}-${candidate.objective}.json`);
    }
  });

  it("exits 2 naming the field of a bad kernel, and writes nothing", async () => {
    const folder = scratch();
    const kernelPath = join(folder, "bad.yaml");
    writeFileSync(kernelPath, readFileSync("constitutions/constitution-0.1.0.yaml", "utf8").replace("quorumPercent: 50", "quorumPercent: 150"));
    const out = join(folder, "out");
    const { code, stderr } = await runCli(["tournament", "--kernel", kernelPath, "--seed", "1", "--out", out]);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toMatch(/^error: .*bad\.yaml: params\.quorumPercent: got 150/);
    expect(existsSync(out)).toBe(false);
    writeFileSync(kernelPath, "version: [");
    expect((await runCli(["tournament", "--kernel", kernelPath, "--seed", "1", "--out", out])).stderr).toMatch(/bad\.yaml.*valid YAML/);
  });

  it("exits 2 on a missing kernel file, a missing seed and an unknown red policy", async () => {
    expect(await runCli(["tournament", "--kernel", "kernels/none.yaml", "--seed", "1"])).toMatchObject({ code: EXIT.badInput, stderr: expect.stringContaining("--kernel") });
    expect(await runCli(["tournament", "--kernel", "constitutions/constitution-0.1.0.yaml"])).toMatchObject({ code: EXIT.badInput, stderr: expect.stringContaining("--seed") });
    expect(await runCli(["tournament", "--kernel", "constitutions/constitution-0.1.0.yaml", "--seed", "1", "--red-policy", "llm"])).toMatchObject({ code: EXIT.badInput, stderr: expect.stringContaining("--red-policy") });
  });

  it("refuses an --out that already holds a report", async () => {
    const out = join(scratch(), "run");
    const flags = ["tournament", "--kernel", "constitutions/constitution-0.2.0.yaml", "--seed", "3", "--episodes", "1", "--rounds", "1", "--out", out];
    expect((await runCli(flags)).code).toBe(EXIT.ok);
    expect(await runCli(flags)).toMatchObject({ code: EXIT.badInput, stderr: expect.stringContaining("--out") });
  });
});
