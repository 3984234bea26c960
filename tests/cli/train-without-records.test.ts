import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";

describe("selfplay train when a step has no trainable record (real engine)", () => {
  it("says so on the step's line and in metrics.jsonl, goes on to the end, and a run that trained nothing at all exits 1 with its files kept", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-no-records-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    // A random model writes no valid problem: every proposal scores −1, every advantage is 0, and with no
    // entropy bonus zero-advantage records are left out — nothing is left to train on.
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ environment: { proposals: 4, solvers: 2, evaluateProblems: 4 }, sequences: 4, evaluateEvery: 0 }));
    let stderr = "";
    let stdout = "";
    const out = join(folder, "run");
    const code = await main(["train", "--model", modelPath, "--config", config, "--steps", "2", "--out", out], {
      io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false },
    });
    // Every step trained nothing: the run says so at the end and fails (it exited 0 before), every file written.
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/error: NothingTrainedError: no step of the run trained anything: all 2 steps had no trainable record \(update skipped\), so .*final\.gguf holds the base model's weights/);
    // The message says it all: no stack trace after it.
    expect(stderr).not.toMatch(/^\s+at /m);
    for (const file of ["final.gguf", "report.json", "report.svg"]) expect(existsSync(join(out, file)), file).toBe(true);
    // No --trainer: ggml when the addon is built (CI requires it), else tfjs, and the line says why (ggml: and its update's threads).
    const ggml = `ggml \\(default: the native addon is built\\), ${availableParallelism()} update thread\\(s\\) \\(default: this machine's cores\\)`;
    expect(stderr).toMatch(new RegExp(`^trainer: (${ggml}|tfjs \\(default: the native addon is unavailable: .+\\))$`, "m"));
    expect(stderr).toMatch(/step 1\/2: reward proposer -1\.000; NO TRAINABLE RECORD \(update skipped\), left out 4 zeroAdvantage;/);
    expect(stderr).toMatch(/step 2\/2: .*NO TRAINABLE RECORD/);
    const steps = (await readFile(join(out, "metrics.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { step: number; skippedUpdate?: boolean; trainedRecords?: number; skippedRecords?: { zeroAdvantage: number } })
      .filter((line) => line.skippedUpdate !== undefined);
    expect(steps.map((line) => [line.step, line.skippedUpdate, line.trainedRecords, line.skippedRecords?.zeroAdvantage])).toEqual([
      [1, true, 0, 4],
      [2, true, 0, 4],
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ stepsWithoutTrainableRecords: 2 });
  });
});
