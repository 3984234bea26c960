import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../../src/inference/model-files/bundled-models.js";
import { runCli } from "../helpers/run-cli.js";

interface RunLine {
  rollouts?: { scored: number; failed: number; dropped: number };
  environment?: Record<string, number>;
  heldOutAccuracy?: number;
  n?: number;
}

interface RolloutLine {
  rollout: { episodeType: string; artifact: { question: string; answer: string }; artifacts: { expected?: string } };
}

async function jsonLines<Line>(path: string): Promise<Line[]> {
  return (await readFile(path, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as Line);
}

/**
 * `selfplay train --env exact-match --data FILE` on the bundled base: the
 * file is the preset's `data`, its held-out questions the `heldOut` file of
 * the config, trained in-process and in a pool of worker threads that make
 * the same environment again from the preset's own module and options.
 */
describe("selfplay train --env exact-match --data FILE (real engine)", () => {
  let folder: string;
  let data: string;
  let config: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-train-exact-match-"));
    data = join(folder, "succ.jsonl");
    await writeFile(data, Array.from({ length: 40 }, (_, index) => JSON.stringify({ question: `${index + 10}+1=`, answer: index + 11 })).join("\n"));
    const heldOut = join(folder, "held-out.jsonl");
    await writeFile(heldOut, ["5+1=", "6+1=", "7+1="].map((question, index) => JSON.stringify({ question, answer: index + 6 })).join("\n"));
    config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ environment: { heldOut, answerFormat: "integer", prompts: 4, groupSize: 8, maxTokens: 4 }, sequences: 16, evaluateEvery: 0 }));
  });

  for (const workers of [0, 2]) {
    it(`trains a step with --workers ${workers}: the file's questions, exactMatch's mean on the step line, the held-out file evaluated before and after`, async () => {
      const out = join(folder, `run-${workers}`);
      const { code, stderr } = await runCli(["train", "--env", "exact-match", "--data", data, "--model", bundledArithmeticBase(), "--config", config, "--steps", "1", "--workers", String(workers), "--out", out, "--device", "cpu"]);
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(workers === 0 ? /pool: in-process/ : /pool: 2 worker thread/);
      expect(stderr).toMatch(/step 1\/1: .*exactMatch\.mean \d/);
      const lines = await jsonLines<RunLine>(join(out, "metrics.jsonl"));
      const [step] = lines.filter((line) => line.rollouts !== undefined);
      expect(step?.rollouts).toEqual({ scored: 32, failed: 0, dropped: 0 });
      const mean = step?.environment?.["exactMatch.mean"] ?? Number.NaN;
      expect(Number.isInteger(mean * 32) && mean >= 0 && mean <= 1).toBe(true);
      expect(lines.filter((line) => line.heldOutAccuracy !== undefined).map((line) => line.n)).toEqual([3, 3]);
      // Every rollout is one of the file's questions, its answer recorded as the expected one (verl's ground truth).
      const rollouts = await jsonLines<RolloutLine>(join(out, "rollouts.jsonl"));
      expect(rollouts).toHaveLength(32);
      for (const { rollout } of rollouts) {
        expect(rollout.episodeType).toBe("dataset");
        expect(rollout.artifact.question).toMatch(/^\d\d\+1=$/);
        expect(rollout.artifacts.expected).toBe(rollout.artifact.answer);
      }
    });
  }
});
