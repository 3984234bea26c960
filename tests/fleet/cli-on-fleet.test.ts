import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LaunchedLlamaServer } from "../../src/benchmarks/llama-cpp/launch-llama-server.js";
import { bundledArithmeticBase } from "../../src/inference/model-files/bundled-models.js";
import { launchFleet, writeBasePreset } from "../helpers/llama-server-fleet.js";
import { runCli } from "../helpers/run-cli.js";

interface LoggedStep {
  policyVersion: number;
  endpoint?: string;
}
interface LoggedResult {
  rollout: { id: string; steps: LoggedStep[] };
  children?: LoggedResult[];
}

const modelPath = bundledArithmeticBase();
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-cli-fleet-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function loggedResults(path: string): Promise<LoggedResult[]> {
  return (await readFile(path, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as LoggedResult);
}

function stepsOf(result: LoggedResult): LoggedStep[] {
  return [...result.rollout.steps, ...(result.children ?? []).flatMap(stepsOf)];
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("selfplay train --client openai on two llama-server routers", () => {
  let routers: LaunchedLlamaServer[] = [];
  let presetFile: string;

  beforeAll(async () => {
    presetFile = await writeBasePreset("arithmetic", modelPath);
    routers = await launchFleet(2, { presetFile }, folder);
  });
  afterAll(async () => {
    await Promise.all(routers.map((router) => router.stop()));
  });

  it("trains, sends each step's weights to both routers, and rolls out the next step on them", async () => {
    const out = join(folder, "train");
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ environment: { proposals: 4, solvers: 2, evaluateProblems: 8 }, sequences: 4, evaluateEvery: 0 }));
    const flags = ["--client", "openai", ...routers.flatMap((router) => ["--endpoint", router.url]), "--preset-file", presetFile, "--server-model", "arithmetic"];
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "2", "--seed", "5", "--out", out, "--device", "cpu", ...flags]);
    expect(stderr).toContain(`rollouts on 2 llama-server endpoint(s): ${routers.map((router) => router.url).join(", ")}`);
    expect(code, stderr).toBe(0);
    const steps = (await loggedResults(join(out, "rollouts.jsonl"))).flatMap(stepsOf);
    expect(new Set(steps.map((step) => step.endpoint))).toEqual(new Set(routers.map((router) => router.url)));
    // Step 1 rolls out the base (version 0); step 2 the weights step 1's update made (version 1), on both routers.
    expect(new Set(steps.map((step) => step.policyVersion))).toEqual(new Set([0, 1]));
    expect(new Set(steps.filter((step) => step.policyVersion === 1).map((step) => step.endpoint)).size).toBe(2);
    const preset = await readFile(presetFile, "utf8");
    expect(preset).toMatch(/\[arithmetic-selfplay-v2\]\nmodel = .*policy-v2\.gguf/);
    expect(sha256(await readFile(join(out, "final.gguf")))).not.toBe(sha256(await readFile(modelPath)));
  });
});

describe("selfplay run --client openai when a server dies mid-run", () => {
  let servers: LaunchedLlamaServer[] = [];

  beforeAll(async () => {
    servers = await launchFleet(2, { modelPath }, folder);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it("retries the dead server's requests on the other, and logs every rollout exactly once", async () => {
    const out = join(folder, "run-killed");
    const [victim, survivor] = servers as [LaunchedLlamaServer, LaunchedLlamaServer];
    const running = runCli(["run", "arithmetic", "--client", "openai", "--endpoint", victim.url, "--endpoint", survivor.url, "--model", modelPath, "--count", "64", "--batch-size", "8", "--concurrency", "8", "--out", out]);
    // Kill one server once the first rollouts are logged: its requests in flight fail and go to the other.
    const rollouts = join(out, "rollouts.jsonl");
    for (let wait = 0; wait < 600; wait++) {
      if (existsSync(rollouts) && (await readFile(rollouts, "utf8")).split("\n").length > 8) break;
      await new Promise((wake) => setTimeout(wake, 50));
    }
    victim.process.kill("SIGKILL");
    const { code, stderr } = await running;
    expect(code, stderr).toBe(0);
    const results = await loggedResults(rollouts);
    const ids = results.map((result) => result.rollout.id);
    expect(ids).toHaveLength(64);
    expect(new Set(ids).size).toBe(64);
    const endpoints = results.flatMap(stepsOf).map((step) => step.endpoint);
    expect(endpoints).toContain(victim.url);
    expect(endpoints).toContain(survivor.url);
    expect(endpoints.slice(-8).every((endpoint) => endpoint === survivor.url)).toBe(true);
  });

  it("refuses to train on a single-model llama-server, before the run starts", async () => {
    const out = join(folder, "train-single");
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--steps", "1", "--out", out, "--client", "openai", "--endpoint", (servers[1] as LaunchedLlamaServer).url]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot train on these servers: a llama-server started with one model cannot load new weights: start it in router mode/);
    expect(existsSync(join(out, "metrics.jsonl"))).toBe(false);
  });

  it("refuses a dead endpoint at the start with exit 2, naming it", async () => {
    const { code, stderr } = await runCli(["run", "arithmetic", "--client", "openai", "--endpoint", "http://127.0.0.1:9", "--model", modelPath, "--count", "2", "--out", join(folder, "dead")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot use 1 of 1 endpoint\(s\) — http:\/\/127\.0\.0\.1:9: \/health failed: ECONNREFUSED/);
  });

  it("refuses server flags without --client openai, and --client openai without --endpoint", async () => {
    const stray = await runCli(["eval", "--endpoint", "http://127.0.0.1:9"]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--endpoint: got \["http:\/\/127\.0\.0\.1:9"\]; expected --client openai alongside it/);
    const bare = await runCli(["train", "--client", "openai", "--steps", "1", "--out", join(folder, "bare")]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--endpoint: expected at least one server URL with --client openai/);
    const unset = await runCli(["eval", "--client", "openai", "--endpoint", "http://127.0.0.1:9", "--api-key-env", "SELFPLAY_TEST_UNSET_KEY"]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/--api-key-env: .*SELFPLAY_TEST_UNSET_KEY is empty or unset/);
  });
});
