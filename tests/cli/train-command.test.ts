import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";

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
    for (const file of ["final.gguf", "report.svg", "report.json", "policies/policy-v1.gguf", "policies/policy-v2.gguf"]) expect(existsSync(join(out, file))).toBe(true);
    expect(await readFile(join(out, "report.svg"), "utf8")).toContain("<svg");
  });

  it("names the configuration field that is wrong", async () => {
    const config = join(folder, "bad.json");
    await writeFile(config, JSON.stringify({ proposals: 0 }));
    const { code, stderr } = await runCli(["train", "--model", modelPath, "--config", config, "--out", join(folder, "bad-run")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad\.json: proposals/);
  });
});
