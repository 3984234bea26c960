import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vulkan } from "../vulkan-device.js";
import { killCliRunWhen } from "../../helpers/kill-cli-run.js";
import { runCli } from "../../helpers/run-cli.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings } from "../../training/reports/run-comparison.js";

// `selfplay train --device vulkan` on the bundled base: the learner engine and the ggml trainer both on Vulkan0
// (llvmpipe here), the weights change, and a run killed mid-way resumes to the same metrics and weights.

const BUNDLED_BASE = resolve(import.meta.dirname, "../../../models/selfplay-arithmetic-base.gguf");
/** A small run, with an entropy bonus so that the weights move whatever the advantages. */
const CONFIGURATION = {
  environment: { proposals: 4, solvers: 2, evaluateProblems: 8 },
  sequences: 4,
  evaluateEvery: 0,
  trainer: { epochs: 1, minibatchSize: 4, loss: { entropyCoefficient: 0.05 }, optimizer: { learningRate: 1e-3 } },
};

let folder: string;
let config: string;
let reference: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-train-vulkan-"));
  config = join(folder, "config.json");
  await writeFile(config, JSON.stringify(CONFIGURATION));
  reference = join(folder, "reference");
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe.skipIf(!vulkan.available)("selfplay train --device vulkan", () => {
  it("trains the bundled base on Vulkan0, says so on stderr and in report.json and trainer.json, and changes the weights", async () => {
    const run = await runCli(["train", "--model", BUNDLED_BASE, "--config", config, "--steps", "3", "--seed", "5", "--device", "vulkan", "--out", reference]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/device: Vulkan0 \(llvmpipe[^)]*\)\) — asked for vulkan/);
    const report = JSON.parse(await readFile(join(reference, "report.json"), "utf8")) as { device: { name: string; backend: string } };
    expect(report.device).toMatchObject({ name: "Vulkan0", backend: "Vulkan" });
    const trainer = JSON.parse(await readFile(join(reference, "checkpoints", "step-3.trainer", "trainer.json"), "utf8")) as { device: { name: string } };
    expect(trainer.device.name).toBe("Vulkan0");
    const metrics = (await readFile(join(reference, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { fallbackNodes?: number });
    const updates = metrics.filter((line) => line.fallbackNodes !== undefined);
    expect(updates.length).toBeGreaterThan(0);
    for (const line of updates) expect(line.fallbackNodes).toBe(0);
    expect(await maxWeightDifference(BUNDLED_BASE, join(reference, "final.gguf"))).toBeGreaterThan(1e-5);
  });

  it("resumes a run SIGKILLed after its first step to the metrics and weights of the run that was never killed", async () => {
    const out = join(folder, "killed");
    const killed = await killCliRunWhen(["train", "--model", BUNDLED_BASE, "--config", config, "--steps", "3", "--seed", "5", "--device", "vulkan", "--out", out], /step 1\/3: reward/);
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    expect(existsSync(join(out, "final.gguf"))).toBe(false);
    const resumed = await runCli(["train", "--resume", out, "--device", "vulkan"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming .* after step [01] of 3/);
    const [actual, expected] = [await metricsWithoutTimings(join(out, "metrics.jsonl")), await metricsWithoutTimings(join(reference, "metrics.jsonl"))];
    expect(metricsDifferences(actual, expected)).toEqual([]);
    expect(await maxWeightDifference(join(reference, "final.gguf"), join(out, "final.gguf"))).toBeLessThanOrEqual(1e-6);
  });
});
