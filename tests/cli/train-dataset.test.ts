import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../../src/inference/model-files/bundled-models.js";
import { runCli } from "../helpers/run-cli.js";

interface RunLine {
  step?: number;
  trainedRecords?: number;
  rollouts?: { scored: number; failed: number; dropped: number };
  environment?: Record<string, number>;
  heldOutAccuracy?: number;
  n?: number;
}

async function runLines(out: string): Promise<RunLine[]> {
  return (await readFile(join(out, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as RunLine);
}

/**
 * `selfplay train --env dataset --data FILE.csv` on the bundled base: a CSV
 * read through the environment (quoted fields, a header row), trained
 * in-process and in a pool of worker threads that make the environment's
 * reward function again from `--env dataset`'s JSON options.
 */
describe("selfplay train --env dataset --data FILE.csv (real engine)", () => {
  let folder: string;
  let config: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-train-dataset-"));
    // N+1 and N-1 for N in 10–99, a header row and a quoted field, as a spreadsheet writes them.
    const rows = Array.from({ length: 90 }, (_, index) => index + 10).flatMap((n) => [`"${n}+1=",${n + 1}`, `${n}-1=,${n - 1}`]);
    await writeFile(join(folder, "succ-pred.csv"), `question,answer\n${rows.join("\n")}\n`);
    config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ environment: { prompt: "question", prompts: 4, groupSize: 2, maxTokens: 4, evaluateItems: 12 }, sequences: 8, evaluateEvery: 0 }));
  });

  for (const workers of [0, 2]) {
    it(`trains a step with --workers ${workers}: every rollout scored by the built-in exactMatch, its mean on the step line, held-out figures before and after`, async () => {
      const out = join(folder, `run-${workers}`);
      const data = join(folder, "succ-pred.csv");
      const { code, stderr } = await runCli(["train", "--env", "dataset", "--data", data, "--model", bundledArithmeticBase(), "--config", config, "--steps", "1", "--workers", String(workers), "--out", out, "--device", "cpu"]);
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(workers === 0 ? /pool: in-process/ : /pool: 2 worker thread/);
      const lines = await runLines(out);
      const [step] = lines.filter((line) => line.rollouts !== undefined);
      expect(step?.rollouts).toEqual({ scored: 8, failed: 0, dropped: 0 });
      const mean = step?.environment?.["exactMatch.mean"];
      // Integer-valued rewards over 8 rollouts: a multiple of 1/8, in [0, 1].
      expect(Number.isInteger((mean ?? Number.NaN) * 8) && (mean as number) >= 0 && (mean as number) <= 1).toBe(true);
      const evaluations = lines.filter((line) => line.heldOutAccuracy !== undefined);
      expect(evaluations.map((line) => [line.step, line.n])).toEqual([
        [0, 12],
        [1, 12],
      ]);
    });
  }
});
