import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings } from "../trainers/rl/run-comparison.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

describe("selfplay train (real engine, tfjs trainer)", () => {
  let folder: string;
  let modelPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-train-cli-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
  });

  it("runs rollout → credit → update → sync for each step and writes metrics, policies, final.gguf and the report", async () => {
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ proposals: 4, solvers: 2, sequences: 4, evaluateEvery: 0, evaluateProblems: 8 }));
    const out = join(folder, "run");
    const { code, stdout, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "2", "--seed", "3", "--out", out]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/step 2\/2: reward proposer/);
    const report = JSON.parse(stdout) as { steps: number; evaluations: { step: number }[] };
    expect(report.steps).toBe(2);
    expect(report.evaluations.map((entry) => entry.step)).toEqual([0, 2]);
    const lines = (await readFile(join(out, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    const steps = lines.filter((line) => "optimizerSteps" in line);
    expect(steps.map((line) => line.step)).toEqual([1, 2]);
    for (const line of steps) {
      expect(line.trainedRecords).toBeGreaterThan(0);
      expect(line.mismatchKl).toBeLessThan(1e-6);
      expect(line.syncSeconds).toBeGreaterThan(0);
    }
    for (const file of ["final.gguf", "report.svg", "report.json", "policies/policy-v1.gguf", "policies/policy-v2.gguf", "checkpoints/step-2.json", "checkpoints/step-2.optimizer.gguf"]) expect(existsSync(join(out, file))).toBe(true);
    expect(await readFile(join(out, "report.svg"), "utf8")).toContain("<svg");
  });

  it("names the configuration field that is wrong", async () => {
    const config = join(folder, "bad.json");
    await writeFile(config, JSON.stringify({ proposals: 0 }));
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--out", join(folder, "bad-run")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad\.json: proposals/);
  });

  describe("--resume", () => {
    /** The small run of the tests above, with an entropy bonus so that the weights move although a random model earns no advantage. */
    const resumeConfiguration = {
      proposals: 4,
      solvers: 2,
      sequences: 4,
      evaluateEvery: 0,
      evaluateProblems: 8,
      trainer: { epochs: 2, minibatchSize: 2, loss: { entropyCoefficient: 0.05 }, optimizer: { learningRate: 1e-3 } },
    };
    let config: string;
    let reference: string;

    beforeAll(async () => {
      config = join(folder, "resume-config.json");
      await writeFile(config, JSON.stringify(resumeConfiguration));
      reference = join(folder, "resume-reference");
      const { code } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "3", "--seed", "5", "--out", reference]);
      expect(code).toBe(0);
    });

    it("continues a run SIGKILLed mid-step and ends with the metrics and weights of the run that was never killed", async () => {
      const out = join(folder, "sigkilled");
      const binary = resolve(import.meta.dirname, "../../dist/src/cli/main.js");
      const child = spawn(process.execPath, [binary, "train", "--model", modelPath, "--config", config, "--steps", "3", "--seed", "5", "--out", out], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
      let stderr = "";
      // Event-driven: killed the moment step 1 is logged, somewhere in its checkpoint or step 2.
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/step 1\/3: reward/.test(stderr)) child.kill("SIGKILL");
      });
      expect(await exited, stderr).toBe("SIGKILL");
      expect(existsSync(join(out, "final.gguf"))).toBe(false);

      const resumed = await runCli(["train", "--resume", out]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/resuming .* after step [01] of 3/);
      const [actual, expected] = [await metricsWithoutTimings(join(out, "metrics.jsonl")), await metricsWithoutTimings(join(reference, "metrics.jsonl"))];
      expect(actual.map((line) => line.step)).toEqual([0, 1, 2, 3, 3]);
      expect(metricsDifferences(actual, expected)).toEqual([]);
      expect(await maxWeightDifference(join(reference, "final.gguf"), join(out, "final.gguf"))).toBeLessThanOrEqual(1e-6);
      expect(await maxWeightDifference(modelPath, join(out, "final.gguf"))).toBeGreaterThan(1e-4);
      // The report covers the steps before the resume too.
      const report = JSON.parse(resumed.stdout) as { evaluations: { step: number }[] };
      expect(report.evaluations.map((entry) => entry.step)).toEqual([0, 3]);
      expect(await readFile(join(out, "report.svg"), "utf8")).toBe(await readFile(join(reference, "report.svg"), "utf8"));
    });

    it("refuses a folder with no checkpoint, with exit 2", async () => {
      const empty = join(folder, "no-run");
      await mkdir(empty);
      const { code, stderr } = await runCli(["train", "--resume", empty]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/--resume: got ".*no-run"; expected the folder of a selfplay train run with a complete checkpoint/);
    });

    it("refuses another configuration, seed or model than the run's, with exit 2 and the fields that differ", async () => {
      const other = join(folder, "other-config.json");
      await writeFile(other, JSON.stringify({ ...resumeConfiguration, proposals: 8 }));
      const byConfig = await runCli(["train", "--resume", reference, "--config", other, "--steps", "3", "--seed", "5"]);
      expect(byConfig.code).toBe(2);
      expect(byConfig.stderr).toMatch(/differs in proposals 4 → 8; leave out --model, --config, --seed and --steps/);
      const bySeed = await runCli(["train", "--resume", reference, "--seed", "6", "--steps", "4"]);
      expect(bySeed.code).toBe(2);
      expect(bySeed.stderr).toMatch(/differs in steps 3 → 4, seed 5 → 6/);
      const byModel = await runCli(["train", "--resume", reference, "--model", join(folder, "another.gguf")]);
      expect(byModel.code).toBe(2);
      expect(byModel.stderr).toMatch(/differs in model ".*tiny\.gguf" → ".*another\.gguf"/);
    });

    it("refuses to start a new run in a run folder, and --out elsewhere with --resume", async () => {
      const fresh = await runCli(["train", "--model", modelPath, "--config", config, "--out", reference]);
      expect(fresh.code).toBe(2);
      expect(fresh.stderr).toMatch(/continue that run with --resume/);
      const moved = await runCli(["train", "--resume", reference, "--out", join(folder, "elsewhere")]);
      expect(moved.code).toBe(2);
      expect(moved.stderr).toMatch(/--out: .*no --out with --resume/);
    });
  });
});
