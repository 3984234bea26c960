import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { GenerateResultSchema } from "../../src/core/schemas/generate-result.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { rolloutsDifferences } from "../training/reports/run-comparison.js";
import { poolDefaultFile } from "./pool-default-fixture.js";

async function runCli(argv: string[], environment?: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false },
    ...(environment && { environment }),
  });
  return { code, stdout, stderr };
}

// The pool line, then the device line every command that opens a model prints (auto: the CPU here).
const DEVICE_LINE = String.raw`device: CPU \(.*\) — auto: ggml found no GPU\n`;
/** Under the device line of an engine in this process: its context and decode threads. */
const ENGINE_LINE = String.raw`engine: \d+-token context a sequence \(.*\), \d+ decode thread\(s\) \(.*\)\n`;
const IN_PROCESS = new RegExp(String.raw`^pool: in-process, no worker threads \(built-in default; no .*pool-default\.json .*\)\n` + DEVICE_LINE + ENGINE_LINE + "$");

describe("selfplay run --model (real engine)", () => {
  let folder: string;
  let modelPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-run-engine-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "qwen2", seed: 3 })).path;
  });

  it("plays proposer-solver on node-llama-cpp and records real token ids and logprobs", async () => {
    const out = join(folder, "proposer-solver");
    const { code, stdout, stderr } = await runCli(["run", "proposer-solver", "--model", modelPath, "--count", "4", "--seed", "2", "--out", out]);
    expect(stderr).toMatch(IN_PROCESS);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^proposer-solver: 4 episodes/);
    const lines = (await readFile(join(out, "rollouts.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      const result = GenerateResultSchema.parse(JSON.parse(line));
      const [step] = result.rollout.steps;
      expect(step?.completionTokenIds.length).toBeGreaterThan(0);
      expect(step?.completionLogprobs.every((logprob) => logprob <= 0 && logprob > -50)).toBe(true);
      // A random model writes no valid problem, so the proposer is scored with the invalid reward.
      expect(result.outcome.status).toBe("scored");
    }
  });

  it("plays the same rollouts in a pool, with one shared engine or an engine in each worker", async () => {
    const flags = ["run", "proposer-solver", "--model", modelPath, "--count", "4", "--seed", "2"];
    const reference = join(folder, "proposer-solver-in-process");
    expect((await runCli([...flags, "--out", reference, "--workers", "0"])).code).toBe(0);
    for (const pool of [["--workers", "2"], ["--workers", "2", "--pool-engine", "per-worker"]]) {
      const out = join(folder, `proposer-solver-${pool.join("")}`);
      const { code, stderr } = await runCli([...flags, "--out", out, ...pool]);
      expect(code, stderr).toBe(0);
      const perWorker = pool.includes("per-worker");
      expect(stderr).toMatch(new RegExp(String.raw`^pool: 2 worker threads, (one shared engine|an engine in each) \(from --workers\)\n` + (perWorker ? DEVICE_LINE.replace(String.raw`\n`, String.raw` \(an engine in each worker\)\n`) : DEVICE_LINE + ENGINE_LINE) + "$"));
      expect(await rolloutsDifferences(join(out, "rollouts.jsonl"), join(reference, "rollouts.jsonl"))).toEqual([]);
    }
  });

  it("uses this machine's saved pool default without --workers, and refuses a broken one before touching the run folder", async () => {
    const config = join(folder, "config");
    await mkdir(config);
    const environment = { SELFPLAY_CONFIG_DIR: config };
    const saved = join(config, "pool-default.json");
    await writeFile(saved, JSON.stringify(poolDefaultFile({ workers: 1, engine: "shared" })));
    const flags = ["run", "proposer-solver", "--model", modelPath, "--count", "4", "--seed", "2"];
    const out = join(folder, "proposer-solver-saved-default");
    const { code, stderr } = await runCli([...flags, "--out", out], environment);
    expect(code, stderr).toBe(0);
    expect(stderr.startsWith(`pool: 1 worker thread, one shared engine (this machine's default from \`selfplay bench pool --save\`, ${saved})\n`)).toBe(true);
    expect(stderr.split("\n").slice(1).join("\n")).toMatch(new RegExp(`^${DEVICE_LINE}${ENGINE_LINE}$`));
    const reference = join(folder, "proposer-solver-saved-reference");
    expect((await runCli([...flags, "--out", reference, "--workers", "0"], environment)).code).toBe(0);
    expect(await rolloutsDifferences(join(out, "rollouts.jsonl"), join(reference, "rollouts.jsonl"))).toEqual([]);

    await writeFile(saved, JSON.stringify({ ...poolDefaultFile(), engine: "threads" }));
    const broken = await runCli([...flags, "--out", join(folder, "never")], environment);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/pool-default\.json: is not a pool default \(engine: .*\); re-run `selfplay bench pool --save` to measure this machine again, or delete the file/);
    expect(broken.stderr).toContain(saved);
    expect(existsSync(join(folder, "never"))).toBe(false);
  });

  it("contains a prompt that outgrows the context: the debate fails with the reason, the run goes on", async () => {
    const out = join(folder, "debate-tiny");
    const { code, stdout } = await runCli(["run", "debate", "--model", modelPath, "--count", "2", "--out", out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/debate: 2 episodes, 2 rollouts, 0 scored, 2 failed \(InvalidInputError: 2\)/);
    const [line] = (await readFile(join(out, "rollouts.jsonl"), "utf8")).trim().split("\n");
    expect(JSON.parse(line!).outcome.error.message).toMatch(/shorter than the context of 256 tokens/);
  });

  it("plays debate on node-llama-cpp; the judge's verdicts, constrained to the labels A and B, score every debate ±1, or 0 when they flip with the order", async () => {
    const out = join(folder, "debate");
    // Four 64-token turns and the judge's instructions run past the medium preset's 512 tokens of context.
    const medium = (await createRandomModel({ path: join(folder, "medium.gguf"), preset: "medium", architecture: "llama", seed: 3, contextLength: 1024 })).path;
    const { code, stdout } = await runCli(["run", "debate", "--model", medium, "--count", "2", "--out", out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/debate: 2 episodes, 2 rollouts, 2 scored, 0 failed/);
    // A random model never learnt the verdict's format; the grammar of the enum makes its first answer valid.
    for (const line of (await readFile(join(out, "rollouts.jsonl"), "utf8")).trim().split("\n")) {
      const result = GenerateResultSchema.parse(JSON.parse(line));
      expect(result.outcome).toEqual({ status: "scored" });
      expect(result.judgeCalls).toBe(2);
      expect(result.structuredOutputs.judge).toMatchObject({ calls: 2, firstTryValid: 2 });
      expect([result.rewards.aff, result.rewards.neg].sort()).toEqual(result.scoreDetails.positionConsistent ? [-1, 1] : [0, 0]);
    }
  });

  it("plays on the default model, created on first use, when given no --model and no --client", async () => {
    const previous = process.env.SELFPLAY_MODEL_DIR;
    process.env.SELFPLAY_MODEL_DIR = join(folder, "models");
    try {
      const out = join(folder, "default-model");
      const { code, stdout, stderr } = await runCli(["run", "proposer-solver", "--count", "2", "--out", out]);
      expect(stderr).toMatch(IN_PROCESS);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^proposer-solver: 2 episodes/);
      expect(JSON.parse(await readFile(join(out, "config.json"), "utf8"))).toMatchObject({ client: "llama", model: "selfplay-medium-llama-seed0.gguf" });
    } finally {
      if (previous === undefined) delete process.env.SELFPLAY_MODEL_DIR;
      else process.env.SELFPLAY_MODEL_DIR = previous;
    }
  });

  it("rejects a file that is not a GGUF model with a clear error and exit code 2 or 1, never a crash", async () => {
    const bogus = join(folder, "bogus.gguf");
    await writeFile(bogus, "not a model");
    const { code, stderr } = await runCli(["run", "debate", "--model", bogus, "--out", join(folder, "bogus-run")]);
    expect(code).toBeGreaterThan(0);
    expect(code).toBeLessThan(128);
    expect(stderr).toMatch(/bogus\.gguf/);
  });
});
