import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Arena } from "../../src/arena/arena.js";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { RUN_FILES, RunDirectory } from "../../src/arena/run-directory.js";
import { runBatches } from "../../src/arena/run-batches.js";
import { readJsonl } from "../../src/core/jsonl/read-jsonl.js";
import { GenerateResultSchema } from "../../src/core/schemas/generate-result.js";
import { TrainingBatchSchema } from "../../src/core/schemas/training-record.js";
import { ARITHMETIC_TOPICS, ProposerEpisode } from "../../src/tasks/proposer-solver/proposer-episode.js";
import { scriptedProposerSolverRules } from "../../src/tasks/proposer-solver/scripted-proposer-solver.js";
import { SolverEpisode } from "../../src/tasks/proposer-solver/solver-episode.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";

async function recordRun(folder: string, seed: number): Promise<void> {
  const arena = new Arena({ client: new ScriptedInferenceClient({ rules: scriptedProposerSolverRules }), seed, concurrency: 5 })
    .register(new ProposerEpisode(), ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))))
    .register(new SolverEpisode());
  const directory = await RunDirectory.create(folder, { seed });
  let tick = 0;
  await runBatches({ arena, directory, plan: { episodeType: "propose" }, count: 10, batchSize: 4, clock: () => tick++ });
  await directory.close();
}

describe("runBatches", () => {
  it("writes byte-identical rollouts and training batches for the same seed in different folders", async () => {
    const base = await mkdtemp(join(tmpdir(), "selfplay-determinism-"));
    await recordRun(join(base, "first", "run"), 11);
    await recordRun(join(base, "second"), 11);
    await recordRun(join(base, "other-seed"), 12);
    for (const file of [RUN_FILES.rollouts, RUN_FILES.trainingBatches, RUN_FILES.config]) {
      const first = await readFile(join(base, "first", "run", file));
      expect(first.length).toBeGreaterThan(0);
      expect(first.equals(await readFile(join(base, "second", file)))).toBe(true);
    }
    const rollouts = await readFile(join(base, "first", "run", RUN_FILES.rollouts), "utf8");
    expect(rollouts).not.toContain(base);
    expect(rollouts).not.toEqual(await readFile(join(base, "other-seed", RUN_FILES.rollouts), "utf8"));
  });

  it("records every episode in request order, one training batch and one metrics line per batch", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-run-"));
    await recordRun(folder, 3);
    expect((await readdir(folder)).sort()).toEqual(Object.values(RUN_FILES).sort());
    const rollouts = await readJsonl(join(folder, RUN_FILES.rollouts), GenerateResultSchema);
    expect(rollouts.records.map((result) => result.rollout.id)).toEqual(Array.from({ length: 10 }, (_, index) => `ep${index}`));
    const batches = await readJsonl(join(folder, RUN_FILES.trainingBatches), TrainingBatchSchema);
    expect(batches.records.map((batch) => batch.batchIndex)).toEqual([0, 1, 2]);
    const metricsLines = (await readFile(join(folder, RUN_FILES.metrics), "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    expect(metricsLines.map((line) => [line.batch, line.episodes, line.elapsedMs])).toEqual([[0, 4, 1], [1, 4, 1], [2, 2, 1]]);
    const rolloutsInFile = rollouts.records.reduce((count, result) => count + 1 + result.children.length, 0);
    expect(metricsLines.reduce((count, line) => count + line.rollouts, 0)).toBe(rolloutsInFile);
  });

  it("refuses a folder that already holds a run and leaves it untouched", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-existing-"));
    await recordRun(folder, 3);
    const before = await readFile(join(folder, RUN_FILES.rollouts));
    await expect(RunDirectory.create(folder, { seed: 4 })).rejects.toThrow(/already|choose another --out/);
    expect((await readFile(join(folder, RUN_FILES.rollouts))).equals(before)).toBe(true);
  });
});
