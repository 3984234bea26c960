import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The child runs the built package (dist/): `npm run build` first, as `npm test` does.
const FIXTURE = resolve(import.meta.dirname, "fixtures/run-scripted-curriculum.mjs");

/** Runs the curriculum in a child and SIGKILLs it once it reports solver `solvers` of episode `episode` graded. */
async function killedRun(out: string, episode: number, solvers: number): Promise<void> {
  const child = spawn(process.execPath, [FIXTURE, out], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes(`progress ${episode} ${solvers}\n`)) child.kill("SIGKILL");
  });
  expect(await exited, stderr).toBe("SIGKILL");
}

function jsonLines(path: string): unknown[] {
  const text = readFileSync(path, "utf8");
  // A whole line ends with a newline: a torn last line would fail here.
  if (text !== "") expect(text.endsWith("\n"), path).toBe(true);
  return text === "" ? [] : text.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);
}

function expectMemoryWhole(path: string, title: string, episodes: number): void {
  const text = readFileSync(path, "utf8");
  expect(text.startsWith(`# ${title}\n\n## Distilled\n\n`), path).toBe(true);
  expect(text.endsWith("\n"), path).toBe(true);
  const entries = text.split("\n## Episodes\n\n")[1]?.trimEnd().split("\n").filter((line) => line !== "") ?? [];
  for (const line of entries) expect(line).toMatch(/^- ep \d+ · /);
  // The memory is written after the episode's metrics line: it lags by at most one.
  expect(entries.length === episodes || entries.length === episodes + 1, `${path}: ${entries.length} entries, ${episodes} metrics lines`).toBe(true);
}

describe("a SIGKILLed riddle curriculum", () => {
  it.each([
    [0, 1],
    [3, 2],
    [9, 4],
  ])("leaves every file it wrote whole (killed after episode %i's solver %i)", async (episode, solvers) => {
    const out = join(mkdtempSync(join(tmpdir(), "selfplay-riddles-kill-")), "run");
    await killedRun(out, episode, solvers);
    JSON.parse(readFileSync(join(out, "config.json"), "utf8"));
    const metrics = jsonLines(join(out, "metrics.jsonl"));
    expect(metrics.length).toBeGreaterThanOrEqual(episode);
    expect(jsonLines(join(out, "rollouts.jsonl")).length).toBeGreaterThanOrEqual(metrics.length);
    jsonLines(join(out, "training-batch.jsonl"));
    expect(jsonLines(join(out, "dataset.jsonl")).length).toBeLessThanOrEqual(metrics.length + 1);
    expectMemoryWhole(join(out, "riddler_memory.md"), "Riddler memory", metrics.length);
    expectMemoryWhole(join(out, "actor_memory.md"), "Actor memory", metrics.length);
    const folders = existsSync(join(out, "episodes")) ? readdirSync(join(out, "episodes")) : [];
    expect(folders.length).toBeGreaterThanOrEqual(metrics.length);
    for (const folder of folders) {
      const path = join(out, "episodes", folder);
      for (const file of readdirSync(path).filter((name) => !name.endsWith(".tmp"))) {
        if (file.endsWith(".json")) JSON.parse(readFileSync(join(path, file), "utf8"));
        else if (file.endsWith(".jsonl")) jsonLines(join(path, file));
        else expect(readFileSync(join(path, file), "utf8")).toMatch(/^# Episode \d+/);
      }
    }
    // Every episode the metrics record has its whole folder.
    for (let index = 0; index < metrics.length; index++) {
      expect(readdirSync(join(out, "episodes", `episode-${index}`)).filter((name) => !name.endsWith(".tmp")).sort()).toEqual(["critic_report.json", "riddle.json", "solver_runs.jsonl", "summary.md"]);
    }
  });
});
