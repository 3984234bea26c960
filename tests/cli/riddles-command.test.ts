import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/cli-io.js";
import { main } from "../../src/cli/program.js";
import { RiddleEpisodeMetricsSchema } from "../../src/riddles/curriculum/riddle-episode-metrics.js";

/** Runs `selfplay …` through the whole program (its error handling included) with a fixed clock. */
async function runCli(argv: string[], now = new Date(Date.UTC(2026, 10, 24, 0, 30)), isTerminal = false) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTerminal };
  const code = await main(argv, { io, now: () => now });
  return { code, stdout, stderr };
}

const scratch = () => mkdtempSync(join(tmpdir(), "selfplay-riddles-cli-"));

describe("selfplay riddles", () => {
  it("exits 2 naming the misspelt config key, and writes nothing", async () => {
    const folder = scratch();
    const config = join(folder, "riddles.json");
    writeFileSync(config, JSON.stringify({ solvers: 4, memory: { compactEvry: 3 } }));
    const { code, stderr } = await runCli(["riddles", "--episodes", "2", "--config", config, "--out", join(folder, "run")]);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toContain(`${config}: memory`);
    expect(stderr).toContain("compactEvry");
    expect(existsSync(join(folder, "run"))).toBe(false);
  });

  it("exits 2 on a config value out of range, a bad --domain and a missing --episodes", async () => {
    const folder = scratch();
    const config = join(folder, "riddles.json");
    writeFileSync(config, JSON.stringify({ band: { low: 1.5 } }));
    const range = await runCli(["riddles", "--episodes", "2", "--config", config]);
    expect(range.code).toBe(EXIT.badInput);
    expect(range.stderr).toContain(`${config}: band.low`);
    const domain = await runCli(["riddles", "--episodes", "2", "--domain", "poetry"]);
    expect(domain.code).toBe(EXIT.badInput);
    expect(domain.stderr).toContain("--domain");
    expect((await runCli(["riddles"])).stderr).toContain("--episodes");
  });

  it("asks for --model with the free-form domain", async () => {
    const { code, stderr } = await runCli(["riddles", "--episodes", "1", "--domain", "free-form", "--out", join(scratch(), "run")]);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toMatch(/--model: expected a GGUF file of an instruction-following model for the free-form domain \(the bundled base only reads a±b arithmetic/);
  });

  it("plays the arithmetic domain on the bundled base into runs/riddles-<clock> and prints the totals as JSON", async () => {
    const folder = scratch();
    const config = join(folder, "riddles.json");
    writeFileSync(config, JSON.stringify({ solvers: 4, waveSize: 2, memory: { compactEvery: 2, excerptEpisodes: 2 } }));
    const cwd = process.cwd();
    process.chdir(folder);
    let run: Awaited<ReturnType<typeof runCli>>;
    try {
      run = await runCli(["riddles", "--episodes", "3", "--config", config, "--seed", "4", "--json"]);
    } finally {
      process.chdir(cwd);
    }
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(readdirSync(join(folder, "runs"))).toEqual(["riddles-2026-11-24T00-30-00-000Z"]);
    const out = join(folder, "runs", "riddles-2026-11-24T00-30-00-000Z");
    const report = JSON.parse(run.stdout) as { domain: string; totals: { episodes: number }; episodes: unknown[] };
    expect(report).toMatchObject({ domain: "arithmetic", totals: { episodes: 3 } });
    expect(report.episodes).toHaveLength(3);
    const metrics = readFileSync(join(out, "metrics.jsonl"), "utf8").trimEnd().split("\n").map((line) => RiddleEpisodeMetricsSchema.parse(JSON.parse(line)));
    expect(metrics.map((line) => line.status)).toEqual(["scored", "scored", "scored"]);
    expect(metrics.reduce((sum, line) => sum + line.trainableRecords, 0)).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8"))).toMatchObject({ kind: "riddles", seed: 4, episodes: 3, model: "selfplay-arithmetic-base.gguf" });
    expect(readFileSync(join(out, "riddler_memory.md"), "utf8")).toMatch(/^# Riddler memory\n\n## Distilled\n\nCompacted after 2 episode\(s\)\./);
    for (const file of ["riddle.json", "solver_runs.jsonl", "critic_report.json", "summary.md"]) expect(existsSync(join(out, "episodes", "episode-2", file))).toBe(true);
  }, 60_000);

  it("draws a progress bar with the solvers solved so far on a terminal, clears it, and prints the summary", async () => {
    const out = join(scratch(), "run");
    const { code, stdout, stderr } = await runCli(["riddles", "--episodes", "2", "--out", out, "--seed", "2"], undefined, true);
    expect(code, stderr).toBe(EXIT.ok);
    expect(stderr).toMatch(/\rriddles \[-{20}\] 0\/2 episodes · episode 0: solver 1\/10, solved so far [01]/);
    expect(stderr).toMatch(/\rriddles \[#{10}-{10}\] 1\/2 episodes · episode 1: solver \d+\/10, solved so far \d+/);
    expect(stderr.endsWith("\r\u001b[2K")).toBe(true);
    expect(stdout).toMatch(/^riddles \(arithmetic\): 2 episode\(s\), 2 with a valid riddle, 0 failed\nsolve rate in band 0\.3–0\.7: /);
    expect(stdout).toContain(`wrote ${join(out, "metrics.jsonl")}, dataset.jsonl, riddler_memory.md, actor_memory.md, episodes/`);
  }, 60_000);
});
