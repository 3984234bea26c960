import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";
import { runCli } from "../helpers/run-cli.js";

// Through vitest, as the code under test: one DroppedRolloutError class.
const SELFPLAY = join(import.meta.dirname, "../../src/index.ts");

/** An echo environment, 2 prompts × 2 attempts a step, whose verifier drops every other rollout it scores and gives the rest `otherwise`. */
const halfDropped = (otherwise: string) => `
import { ArtifactStore, DroppedRolloutError, RoleSchema, SingleTurnEpisode } from "${SELFPLAY}";
import { z } from "zod";
class OffTopicError extends DroppedRolloutError { name = "OffTopicError"; }
let scored = 0;
class Echo extends SingleTurnEpisode {
  type = "echo";
  roles = [RoleSchema.parse({ id: "student", sampler: { maxTokens: 2 } })];
  verifier = { score: async (rollout) => { if (scored++ % 2 === 0) throw new OffTopicError("off topic"); return { rewards: { student: ${otherwise} } }; } };
  roleId = "student";
  artifactSchema = z.object({ question: z.string() });
  prompt(artifact) { return [{ role: "user", content: artifact.question }]; }
  finalize() { return {}; }
}
export const createEpisodes = () => [new Echo()];
export function createEnvironment() {
  return { name: "echo", episodes: { module: import.meta.url, exportName: "createEpisodes" }, stores: { echo: ArtifactStore.of([{ question: "1+1=" }]) }, plan: [{ episodeType: "echo", count: 2, groupSize: 2 }] };
}
`;

interface StepLine {
  step: number;
  rollouts: { scored: number; failed: number; dropped: number };
  failures: Record<string, Record<string, number>>;
  drops: Record<string, number>;
}

/**
 * The main job (`selfplay train`, no --env) at its smallest: its proposer writes held-out problems, which the
 * arithmetic environment drops by design. A healthy run says so on its step lines and never prints a failure.
 */
describe("selfplay train: the main job's dropped rollouts are no failures (real engine)", () => {
  it("10 steps of 8 proposals × 2 solvers: no FAILED line, the drops on the step lines, in metrics.jsonl and in rollouts.jsonl", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-drops-"));
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ environment: { proposals: 8, solvers: 2, evaluateProblems: 1 }, evaluateEvery: 0 }));
    const out = join(folder, "run");
    const { code, stderr } = await runCli(["train", "--config", config, "--steps", "10", "--out", out, "--device", "cpu"]);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/FAILED/);
    const steps = (await readFile(join(out, "metrics.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as StepLine)
      .filter((line) => line.rollouts !== undefined);
    expect(steps).toHaveLength(10);
    const dropped = steps.reduce((sum, line) => sum + line.rollouts.dropped, 0);
    expect(dropped).toBeGreaterThan(0);
    for (const line of steps) {
      expect(line.rollouts.failed).toBe(0);
      expect(line.failures).toEqual({});
      expect(line.drops).toEqual(line.rollouts.dropped > 0 ? { HeldOutProblemError: line.rollouts.dropped } : {});
      const shown = new RegExp(`^step ${line.step}/10: .*; \\d+ records trained[^;]*, ${line.rollouts.dropped} rollouts? dropped \\(HeldOutProblemError ${line.rollouts.dropped}\\); `, "m");
      if (line.rollouts.dropped > 0) expect(stderr).toMatch(shown);
      else expect(stderr).not.toMatch(new RegExp(`^step ${line.step}/10: .*dropped \\(`, "m"));
    }
    // Each one is in rollouts.jsonl as what it is: a proposal dropped at scoring, with the held-out problem as its reason.
    const outcomes = (await readFile(join(out, "rollouts.jsonl"), "utf8")).trim().split("\n").map((line) => (JSON.parse(line) as { outcome: { status: string; reason?: { name: string } } }).outcome);
    expect(outcomes.filter((outcome) => outcome.status === "dropped")).toEqual(Array.from({ length: dropped }, () => ({ status: "dropped", stage: "score", reason: { name: "HeldOutProblemError", message: expect.stringMatching(/^"\d+[+-]\d+" is a held-out problem; it is dropped from training$/) } })));
    expect(outcomes.filter((outcome) => outcome.status === "failed")).toEqual([]);
    // About 20 s of CPU; the wall clock is longer where other suites share the cores.
  }, 240_000);

  it("a verifier that throws beside one that drops: the failures still print FAILED, counted without the drops, and still stop the run", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-drops-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ sequences: 4, evaluateEvery: 0 }));
    const module = join(folder, "half-dropped.js");
    // The rest read a field the rollout lacks: a TypeError.
    await writeFile(module, halfDropped("rollout.artifacts.missing.length"));
    const out = join(folder, "run");
    const { code, stderr } = await runCli(["train", "--env", module, "--model", modelPath, "--config", config, "--steps", "6", "--out", out]);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/^step 1\/6: reward none; NO TRAINABLE RECORD \(update skipped\), 2 rollouts dropped \(OffTopicError 2\);.*\n {2}2 of 2 rollouts FAILED: score 2 \(TypeError 2\); first ep\d+ \(echo\) at score: TypeError: Cannot read properties of undefined \(reading 'length'\)$/m);
    expect(stderr).toMatch(/error: RolloutsFailedError: step 3: 2 of 2 rollouts failed, and 3 steps in a row had at least maxFailedFraction of them fail, so the run stops\./);
    expect(stderr).not.toMatch(/^step 4\//m);
    const steps = (await readFile(join(out, "metrics.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as StepLine)
      .filter((line) => line.rollouts !== undefined);
    expect(steps.map((line) => [line.step, line.rollouts, line.failures, line.drops])).toEqual(
      [1, 2, 3].map((step) => [step, { scored: 0, failed: 2, dropped: 2 }, { score: { TypeError: 2 } }, { OffTopicError: 2 }]),
    );
  });

  it("half of every step dropped and the rest scored: the run goes to its end (drops are not part of maxFailedFraction), no FAILED line", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-drops-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    const config = join(folder, "config.json");
    // Equal rewards have no advantage: the entropy bonus makes their records count, so the run trains something.
    await writeFile(config, JSON.stringify({ sequences: 4, evaluateEvery: 0, trainer: { loss: { entropyCoefficient: 0.05 } } }));
    const module = join(folder, "half-dropped-scored.js");
    await writeFile(module, halfDropped("1"));
    const out = join(folder, "run");
    const { code, stderr } = await runCli(["train", "--env", module, "--model", modelPath, "--config", config, "--steps", "4", "--out", out]);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/FAILED|RolloutsFailedError/);
    expect(stderr.match(/^step \d\/4: reward student 1\.000; \d+ records trained[^;]*, 2 rollouts dropped \(OffTopicError 2\); /gm)).toHaveLength(4);
  });
});
