import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";

async function runCli(argv: string[], isTerminal = false) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal },
    now: () => new Date("2026-01-02T03:04:05.678Z"),
  });
  return { code, stdout, stderr };
}

const freshFolder = async () => join(await mkdtemp(join(tmpdir(), "selfplay-cli-")), "run");

describe("selfplay run", () => {
  it("plays debate with the scripted client and ends with a one-line summary", async () => {
    const out = await freshFolder();
    const { code, stdout, stderr } = await runCli(["run", "debate", "--client", "scripted", "--seed", "4", "--count", "6", "--out", out]);
    expect(stderr).toBe("pool: in-process, no worker threads (built-in default; the saved bench default is for the real engine, not --client scripted)\n");
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    expect(stdout).toMatch(/^debate: 6 episodes, 6 rollouts, \d+ scored, \d+ failed.*mean reward aff -?\d\.\d{3}, neg -?\d\.\d{3}.*judge calls → /);
    expect(JSON.parse(await readFile(join(out, "config.json"), "utf8"))).toMatchObject({ episode: "debate", seed: 4, count: 6 });
  });

  it("plays proposer-solver, including its solver sub-episodes", async () => {
    const out = await freshFolder();
    const { code, stdout } = await runCli(["run", "proposer-solver", "--client", "scripted", "--seed", "1", "--count", "5", "--out", out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^proposer-solver: 5 episodes, (\d+) rollouts/);
    expect(Number(/(\d+) rollouts/.exec(stdout)?.[1])).toBeGreaterThan(5);
  });

  it("draws a progress bar only on a terminal", async () => {
    const { stderr } = await runCli(["run", "debate", "--client", "scripted", "--count", "2", "--out", await freshFolder()], true);
    expect(stderr).toContain("episodes");
  });

  it.each([
    [["--count", "0"], /--count: got "0"; expected an integer from 1/],
    [["--count", "2.5"], /--count: got "2.5"; expected an integer from 1/],
    [["--seed", "-1"], /--seed: got "-1"; expected an integer from 0 to 4294967295/],
    [["--seed", "abc"], /--seed: got "abc"; expected an integer from 0 to 4294967295/],
    [["--client", "gpt"], /--client: got "gpt"; expected one of: scripted, llama, openai/],
    [["--client", "openai"], /--endpoint: expected at least one server URL with --client openai/],
    [["--endpoint", "http://127.0.0.1:8080"], /--endpoint: got \["http:\/\/127\.0\.0\.1:8080"\]; expected --client openai alongside it/],
    [["--client", "openai", "--endpoint", "ftp://host"], /--endpoint: got "ftp:\/\/host"; expected an http:\/\/ or https:\/\/ URL/],
    [["--bogus", "1"], /unknown option '--bogus'/],
    [["--workers", "-1"], /--workers: got "-1"; expected an integer from 0 to 256/],
    [["--workers", "1.5"], /--workers: got "1.5"; expected an integer from 0 to 256/],
    [["--workers", "257"], /--workers: got "257"; expected an integer from 0 to 256/],
    [["--workers", "0", "--pool-engine", "per-worker"], /--pool-engine: got "per-worker"; expected shared, or per-worker with --workers ≥ 1/],
    [["--pool-engine", "shared"], /--pool-engine: got "shared"; expected it together with --workers N/],
    [["--workers", "1", "--pool-engine", "both"], /--pool-engine: got "both"; expected one of: shared, per-worker/],
    [["--workers", "1", "--pool-engine", "per-worker"], /--pool-engine: got "per-worker"; expected shared with --client scripted/],
  ])("rejects %j with exit code 2, names the field and creates no run folder", async (flags, message) => {
    const out = await freshFolder();
    const { code, stderr } = await runCli(["run", "debate", "--client", "scripted", "--out", out, ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it("plays in a pool of worker threads with --workers, giving the in-process run's files byte for byte", async () => {
    const [inProcess, pooled] = [await freshFolder(), await freshFolder()];
    const flags = ["run", "proposer-solver", "--client", "scripted", "--seed", "3", "--count", "6", "--batch-size", "4"];
    expect((await runCli([...flags, "--out", inProcess, "--workers", "0"])).code).toBe(0);
    const { code, stderr } = await runCli([...flags, "--out", pooled, "--workers", "2"]);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe("pool: 2 worker threads, one shared engine (from --workers)\n");
    for (const file of ["rollouts.jsonl", "training-batch.jsonl", "config.json"]) {
      expect(await readFile(join(pooled, file), "utf8"), file).toBe(await readFile(join(inProcess, file), "utf8"));
    }
  });

  it("rejects an unknown episode and lists the allowed ones", async () => {
    const { code, stderr } = await runCli(["run", "chess", "--out", await freshFolder()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/episode: got "chess"; expected one of: arithmetic, debate, dialectic, proposer-solver, exact-match, tournament, riddles, dream, tic-tac-toe, dataset/);
  });

  it("refuses to write into an existing run with exit code 2", async () => {
    const out = await freshFolder();
    expect((await runCli(["run", "debate", "--client", "scripted", "--count", "1", "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "rollouts.jsonl"));
    const again = await runCli(["run", "debate", "--client", "scripted", "--count", "1", "--out", out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/choose another --out/);
    expect((await readFile(join(out, "rollouts.jsonl"))).equals(before)).toBe(true);
  });

  it("prints help with exit code 0", async () => {
    const { code, stdout } = await runCli(["run", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("--batch-size <n>");
  });
});

describe("the installed binary", () => {
  it("runs as `selfplay` from the build", async () => {
    const binary = resolve(import.meta.dirname, "../../dist/src/cli/main.js");
    const { stdout } = await promisify(execFile)(process.execPath, [binary, "--help"]);
    expect(stdout).toContain("Usage: selfplay");
    expect(stdout).toContain("run [options] <episode>");
  });
});
