import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { existsSync, readdirSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { EXIT } from "../../src/cli/cli-io.js";
import { HashedNgramFeaturiser } from "../../src/frontier/prm/hashed-ngram-featuriser.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { savePrm } from "../../src/training/prm/save-prm.js";
import { trainPrm } from "../../src/training/prm/train-prm.js";
import { proposerTargetGapOfMetrics } from "../../src/tasks/arithmetic/proposer-target-gap.js";
import { killCliRunWhen } from "../helpers/kill-cli-run.js";
import { syntheticPrmExamples } from "../training/prm/synthetic-prm-examples.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings, rolloutsDifferences } from "../training/reports/run-comparison.js";

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
    // A random model earns no advantage: zero-advantage records are left out of the update unless an entropy bonus makes them count.
    await writeFile(config, JSON.stringify({ environment: { proposals: 4, solvers: 2, evaluateProblems: 8 }, sequences: 4, evaluateEvery: 0, trainer: { loss: { entropyCoefficient: 0.05 } } }));
    const out = join(folder, "run");
    const { code, stdout, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "2", "--seed", "3", "--out", out, "--device", "cpu"]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/step 2\/2: reward proposer/);
    // The device: said once on stderr, recorded in report.json and (the ggml trainer's own) in trainer.json.
    expect(stderr.match(/^device: .*$/gm)).toEqual([expect.stringMatching(/^device: CPU \(.*\) — asked for the CPU$/)]);
    const device = { requested: "cpu", name: "CPU", description: expect.any(String), backend: "CPU" };
    expect(JSON.parse(await readFile(join(out, "report.json"), "utf8")).device).toEqual(device);
    const trainer = JSON.parse(await readFile(join(out, "checkpoints/step-2.trainer/trainer.json"), "utf8")) as { backend: string; device?: unknown; threads?: number };
    expect(trainer.device).toEqual(trainer.backend === "ggml" ? device : undefined);
    // The update's threads: every core by default (rollouts wait for it), said on stderr, recorded in both files.
    const ggml = trainer.backend === "ggml";
    expect(stderr).toContain(ggml ? `, ${availableParallelism()} update thread(s) (default: this machine's cores)\n` : "trainer: tfjs (");
    expect(trainer.threads).toBe(ggml ? availableParallelism() : undefined);
    expect(JSON.parse(await readFile(join(out, "report.json"), "utf8")).trainerThreads).toBe(ggml ? availableParallelism() : null);
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
      // On the CPU no graph node falls back to it (the ggml trainer counts them; tfjs has none).
      expect(line.fallbackNodes).toBe(trainer.backend === "ggml" ? 0 : undefined);
    }
    // One rollouts.jsonl line per proposal; the report says how targets were chosen.
    expect((await readFile(join(out, "rollouts.jsonl"), "utf8")).trimEnd().split("\n")).toHaveLength(2 * 4);
    expect(steps.map((line) => line.frontier.reasons)).toEqual([{ uniform: 4 }, { uniform: 4 }]);
    expect(JSON.parse(stdout).frontier).toEqual({ mode: "uniform", reasons: { uniform: 8 } });
    expect(JSON.parse(stdout).proposerTargetGap).toEqual(proposerTargetGapOfMetrics(lines, 0.5));
    for (const file of ["final.gguf", "report.svg", "report.json", "policies/policy-v1.gguf", "policies/policy-v2.gguf", "checkpoints/step-2.json", "checkpoints/step-2.trainer/optimizer.gguf", "checkpoints/step-2.trainer/weights.gguf"]) expect(existsSync(join(out, file))).toBe(true);
    expect(await readFile(join(out, "report.svg"), "utf8")).toContain("<svg");
  });

  it("--report-to csv,tensorboard also writes metrics.csv and TensorBoard events with the step lines' scalars; a bad output exits 2", async () => {
    const config = join(folder, "report-to.json");
    await writeFile(config, JSON.stringify({ environment: { proposals: 4, solvers: 2, evaluateProblems: 8 }, sequences: 4, evaluateEvery: 0, trainer: { loss: { entropyCoefficient: 0.05 } } }));
    const out = join(folder, "report-to");
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "1", "--out", out, "--device", "cpu", "--report-to", "jsonl,csv,tensorboard"]);
    expect(code, stderr).toBe(0);
    const step = JSON.parse((await readFile(join(out, "metrics.jsonl"), "utf8")).split("\n").find((line) => line.includes('"optimizerSteps"')) as string) as Record<string, unknown>;
    const [header, row] = (await readFile(join(out, "metrics.csv"), "utf8")).trim().split("\n") as [string, string];
    const columns = header.split(",");
    expect(columns).toContain("rewards/proposer");
    expect(Number(row.split(",")[columns.indexOf("trainedRecords")])).toBe(step.trainedRecords);
    expect(readdirSync(join(out, "tensorboard"))).toEqual([expect.stringMatching(/^events\.out\.tfevents\./)]);
    const bad = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "1", "--out", join(folder, "bad-report"), "--report-to", "csv,wandb"]);
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.stderr).toMatch(/--report-to/);
    expect(existsSync(join(folder, "bad-report"))).toBe(false);
    const keepNone = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "1", "--out", join(folder, "bad-keep"), "--keep-policies", "0"]);
    expect(keepNone.code).toBe(EXIT.badInput);
    expect(keepNone.stderr).toMatch(/--keep-policies/);
  });

  it("logs a debate's judging figures on the step line and in metrics.jsonl: position consistency, and with --judge-model the policy's agreement with the judge", async () => {
    const config = join(folder, "debate.json");
    // A short motion: the judge's prompt states it, and the tiny model's context is 256 tokens.
    await writeFile(config, JSON.stringify({ environment: { motions: ["Tabs are better than spaces."], prompts: 1, groupSize: 4, rounds: 1, maxTokens: 4 }, sequences: 4, trainer: { loss: { entropyCoefficient: 0.05 } } }));
    const out = join(folder, "debate-judged");
    const { code, stderr } = await runCli(["train", "--env", "debate", "--model", modelPath, "--judge-model", modelPath, "--config", config, "--steps", "1", "--out", out, "--device", "cpu"]);
    expect(code, stderr).toBe(0);
    const step = JSON.parse((await readFile(join(out, "metrics.jsonl"), "utf8")).split("\n").find((line) => line.includes('"optimizerSteps"')) as string) as { judging: Record<string, number> };
    const results = (await readFile(join(out, "rollouts.jsonl"), "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line) as { scoreDetails: Record<string, unknown> });
    const share = (field: string) => results.filter((result) => result.scoreDetails[field] === true).length / 4;
    expect(step.judging).toEqual({ positionConsistency: share("positionConsistent"), swappedVerdicts: 4, judgeAgreement: share("judgeAgreement"), comparedVerdicts: 4 });
    const figure = (share: number) => share.toFixed(3).replace(".", "\\.");
    expect(stderr).toMatch(new RegExp(`step 1/1: .*; position consistency ${figure(step.judging.positionConsistency!)} \\(n=4\\), judge agreement ${figure(step.judging.judgeAgreement!)} \\(n=4\\), affirmativeWinRate`));
  });

  describe("--frontier prm", () => {
    let prm: string;
    let config: string;

    beforeAll(async () => {
      await tf.setBackend("cpu");
      const trained = await trainPrm(syntheticPrmExamples(40, "train-cli"), { featuriser: new HashedNgramFeaturiser({ dimensions: 32 }), configuration: { hiddenDimensions: 4, epochs: 1 } });
      prm = join(folder, "prm");
      await savePrm(prm, trained.network.weights(), trained.metadata);
      trained.network.dispose();
      config = join(folder, "frontier-config.json");
      // An entropy bonus gives the update records to train (a run that trains nothing at all exits 1).
      await writeFile(config, JSON.stringify({ environment: { proposals: 4, solvers: 2, evaluateProblems: 8 }, sequences: 4, evaluateEvery: 0, trainer: { loss: { entropyCoefficient: 0.05 } } }));
    });

    it("takes the proposals' targets from the frontier tracker, logs each step's rules and reports the mode", async () => {
      const out = join(folder, "frontier-run");
      const { code, stdout, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "2", "--seed", "3", "--out", out, "--frontier", "prm", "--prm", prm]);
      expect(code, stderr).toBe(0);
      expect(stderr).toContain(`prompts by the PRM-weighted frontier (${resolve(prm)})`);
      // A random model writes no valid problem: no trajectories, so every pick is a logged fallback.
      expect(stderr).toMatch(/step 1\/2: reward .*\n {2}targets: (fallback:[a-z-]+ \d(, )?)+\n( {4}frontier fallback \(.*\) → .*\n)+step 2\/2/);
      const lines = (await readFile(join(out, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line));
      const reasons = lines.filter((line) => "frontier" in line).map((line) => line.frontier.reasons as Record<string, number>);
      expect(reasons.map((counts) => Object.values(counts).reduce((sum, count) => sum + count, 0))).toEqual([4, 4]);
      const report = JSON.parse(stdout) as { frontier: { mode: string; prmPath: string; reasons: Record<string, number> } };
      expect(report.frontier).toMatchObject({ mode: "prm", prmPath: resolve(prm) });
      expect(Object.values(report.frontier.reasons).reduce((sum, count) => sum + count, 0)).toBe(8);
      expect(await readFile(join(out, "report.svg"), "utf8")).toContain("PRM-weighted frontier");

      // The two modes side by side at equal wall-clock time.
      const compared = await runCli(["train-compare", join(folder, "run"), out, "--json", "--svg", join(folder, "compare.svg")]);
      expect(compared.code, compared.stderr).toBe(0);
      const comparison = JSON.parse(compared.stdout) as { budgetSeconds: number; runs: { frontier: string; atBudget: { step: number } | null }[]; modes: Record<string, { runs: number }> };
      expect(comparison.runs.map((run) => run.frontier)).toEqual(["uniform", "prm"]);
      expect(comparison.modes).toMatchObject({ uniform: { runs: 1 }, prm: { runs: 1 } });
      expect(comparison.runs.every((run) => run.atBudget !== null)).toBe(true);
      expect(await readFile(join(folder, "compare.svg"), "utf8")).toMatch(/<svg[\s\S]*seconds \(to \d+\)/);
      const human = await runCli(["train-compare", join(folder, "run"), out]);
      expect(human.stdout).toMatch(/^held-out accuracy at \d+ s of wall-clock time:\n.*run: uniform, seed 3: [\d.]+% \(step \d, \d+ s\)/);
      expect(human.stdout).toMatch(/\nprm: mean [\d.]+%, mean gain -?[\d.]+% over 1 run\(s\) \(seeds 3\)\nuniform: mean /);
    });

    it("exits 2 without a PRM, or with one that does not load, and leaves no run behind", async () => {
      const out = join(folder, "frontier-bad");
      const none = await runCli(["train", "--model", modelPath, "--config", config, "--out", out, "--frontier", "prm"]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/frontier-config\.json: frontier\.prmPath: expected a PRM directory .*pass --prm DIR, or --frontier uniform/);
      const missing = await runCli(["train", "--model", modelPath, "--config", config, "--out", out, "--frontier", "prm", "--prm", join(folder, "no-prm")]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/no-prm\/prm\.json: cannot be read/);
      expect(existsSync(join(out, "metrics.jsonl"))).toBe(false);
      expect((await runCli(["train", "--model", modelPath, "--config", config, "--frontier", "best"])).stderr).toMatch(/--frontier: got "best"; expected one of: uniform, prm/);
    });
  });

  describe("--workers", () => {
    let config: string;
    let reference: string;

    beforeAll(async () => {
      config = join(folder, "pool-config.json");
      await writeFile(config, JSON.stringify({ environment: { proposals: 4, solvers: 2, evaluateProblems: 8 }, sequences: 4, evaluateEvery: 0, trainer: { loss: { entropyCoefficient: 0.05 } } }));
      reference = join(folder, "pool-reference");
      const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "2", "--seed", "4", "--out", reference, "--workers", "0"]);
      expect(code, stderr).toBe(0);
      expect(stderr).toContain("pool: in-process, no worker threads (from --workers)\n");
      // A training run, as long as a test's: the update takes every core by default, and on busy cores that is slower.
    }, 60_000);

    it.each([
      [["--workers", "1"], "1 worker thread, one shared engine"],
      [["--workers", "2", "--pool-engine", "per-worker"], "2 worker threads, an engine in each"],
    ])("%j gives the in-process run's rollouts, metrics and weights, the second step on the synced policy", async (pool, described) => {
      const out = join(folder, `pool-${pool.join("")}`);
      const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--steps", "2", "--seed", "4", "--out", out, ...pool]);
      expect(code, stderr).toBe(0);
      expect(stderr).toContain(`pool: ${described} (from --workers)\n`);
      expect(await rolloutsDifferences(join(out, "rollouts.jsonl"), join(reference, "rollouts.jsonl"))).toEqual([]);
      expect(metricsDifferences(await metricsWithoutTimings(join(out, "metrics.jsonl")), await metricsWithoutTimings(join(reference, "metrics.jsonl")))).toEqual([]);
      expect(await maxWeightDifference(join(reference, "final.gguf"), join(out, "final.gguf"))).toBeLessThanOrEqual(1e-6);
      // Four proposals a step: step 2's come from the weights synced after step 1, in the workers' engines too.
      const versions = (await readFile(join(out, "rollouts.jsonl"), "utf8")).trimEnd().split("\n").map((line) =>
        new Set((JSON.parse(line) as { rollout: { steps: { policyVersion: number }[] } }).rollout.steps.map((step) => step.policyVersion)));
      expect(versions.map((set) => [...set])).toEqual([[0], [0], [0], [0], [1], [1], [1], [1]]);
    });

    it.each([
      [["--workers", "-2"], /--workers: got "-2"; expected an integer from 0 to 256/],
      [["--workers", "two"], /--workers: got "two"; expected an integer from 0 to 256/],
      [["--workers", "0", "--pool-engine", "per-worker"], /--pool-engine: got "per-worker"; expected shared, or per-worker with --workers ≥ 1/],
      [["--pool-engine", "per-worker"], /--pool-engine: got "per-worker"; expected it together with --workers N/],
    ])("rejects %j with exit 2 before starting a run", async (pool, message) => {
      const out = join(folder, "pool-bad");
      const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--out", out, ...pool]);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });
  });

  it.each([
    [["--trainer-threads", "0"], undefined, /--trainer-threads: got "0"; expected an integer from 1 to 1024/],
    [["--trainer-threads", "many"], undefined, /--trainer-threads: got "many"; expected an integer from 1 to 1024/],
    [[], { trainer: { threads: 1.5 } }, /threads\.json: trainer\.threads: got 1\.5; expected/],
    [["--trainer", "tfjs", "--trainer-threads", "2"], undefined, /--trainer-threads: got 2; expected no thread count with the tfjs trainer .*--trainer ggml/],
    [["--trainer", "tfjs"], { trainer: { threads: 2 } }, /threads\.json: trainer\.threads: got 2; expected no thread count with the tfjs trainer/],
  ])("refuses the update's threads %j (configuration %j) with exit 2, naming the field, before starting a run", async (flags, configuration, message) => {
    const out = join(folder, "threads-bad");
    const config = join(folder, "threads.json");
    await writeFile(config, JSON.stringify(configuration ?? {}));
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--out", out, ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it("names the configuration field that is wrong", async () => {
    const config = join(folder, "bad.json");
    await writeFile(config, JSON.stringify({ environment: { proposals: 0 } }));
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--out", join(folder, "bad-run")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/environment\.proposals: got 0/);
    expect(existsSync(join(folder, "bad-run"))).toBe(false);
  });

  describe("--resume", () => {
    /** The small run of the tests above, with an entropy bonus so that the weights move although a random model earns no advantage. */
    const resumeConfiguration = {
      environment: { proposals: 4, solvers: 2, evaluateProblems: 8 },
      sequences: 4,
      evaluateEvery: 0,
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
      // A training run, as long as a test's: the update takes every core by default, and on busy cores that is slower.
    }, 60_000);

    it("continues a run SIGKILLed mid-step and ends with the metrics and weights of the run that was never killed", async () => {
      const out = join(folder, "sigkilled");
      // Killed the moment step 1 is logged, somewhere in its checkpoint or step 2.
      const killed = await killCliRunWhen(["train", "--model", modelPath, "--config", config, "--steps", "3", "--seed", "5", "--out", out], /step 1\/3: reward/);
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      expect(existsSync(join(out, "final.gguf"))).toBe(false);

      // In a pool and on one update thread this time: both change speed, not results, so a resume may choose others.
      // (The thread count where the trainer takes one: ggml, the default wherever the native addon is built.)
      const { backend } = JSON.parse(await readFile(join(reference, "checkpoints/step-3.trainer/trainer.json"), "utf8")) as { backend: string };
      const resumed = await runCli(["train", "--resume", out, "--workers", "1", ...(backend === "ggml" ? ["--trainer-threads", "1"] : [])]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain("pool: 1 worker thread, one shared engine (from --workers)\n");
      if (backend === "ggml") expect(resumed.stderr).toMatch(/^trainer: ggml .*, 1 update thread\(s\) \(from --trainer-threads\)$/m);
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
      await writeFile(other, JSON.stringify({ ...resumeConfiguration, environment: { ...resumeConfiguration.environment, proposals: 8 } }));
      const byConfig = await runCli(["train", "--resume", reference, "--config", other, "--steps", "3", "--seed", "5"]);
      expect(byConfig.code).toBe(2);
      expect(byConfig.stderr).toMatch(/differs in environment\.proposals 4 → 8; leave out --model, --env, --config, --seed and --steps/);
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
