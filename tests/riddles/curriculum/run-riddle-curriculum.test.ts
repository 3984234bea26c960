import { appendFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { RiddleDatasetEntrySchema } from "../../../src/riddles/curriculum/riddle-dataset-entry.js";
import { RiddleEpisodeMetricsSchema } from "../../../src/riddles/curriculum/riddle-episode-metrics.js";
import { runRiddleCurriculum, type RiddleCurriculumOptions, type RiddleCurriculumProgress } from "../../../src/riddles/curriculum/run-riddle-curriculum.js";
import type { RiddleArtifact } from "../../../src/riddles/riddle-artifact.js";
import { parseRiddleConfig } from "../../../src/riddles/riddle-config.js";
import { ScriptedRiddleEpisode, scriptedRiddleRules } from "./scripted-riddle-episode.js";

const scratch = () => mkdtempSync(join(tmpdir(), "selfplay-riddles-"));
const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);

async function play(out: string, options: { overrides?: Record<string, unknown>; episodes?: number; seed?: number; onProgress?: RiddleCurriculumOptions["onProgress"] } = {}) {
  const config = parseRiddleConfig({ solvers: 4, waveSize: 2, memory: { compactEvery: 3, excerptEpisodes: 2 }, ...options.overrides });
  const artifacts: RiddleArtifact[] = [];
  const client = new ScriptedInferenceClient({ rules: scriptedRiddleRules });
  const result = await runRiddleCurriculum({
    config,
    episodes: options.episodes ?? 7,
    out,
    client,
    seed: options.seed ?? 3,
    createEpisodes: (hooks) => {
      const episode = new ScriptedRiddleEpisode(config, hooks);
      // Records what each episode was handed.
      const rollout = episode.rollout.bind(episode);
      episode.rollout = (context, artifact) => (artifacts.push(artifact), rollout(context, artifact));
      return [episode];
    },
    ...(options.onProgress && { onProgress: options.onProgress }),
  });
  return { result, artifacts, client };
}

describe("runRiddleCurriculum", () => {
  it("writes every episode's files, the dataset, the metrics and rollouts, and hands each episode the memories' excerpts and recent riddles", async () => {
    const out = join(scratch(), "run");
    const progress: RiddleCurriculumProgress[] = [];
    const { result, artifacts } = await play(out, { overrides: { duplicates: { window: 2 } }, onProgress: (entry) => progress.push(entry) });

    expect(result.metrics).toHaveLength(7);
    const metrics = lines(join(out, "metrics.jsonl")).map((line) => RiddleEpisodeMetricsSchema.parse(line));
    expect(metrics).toEqual(result.metrics);
    expect(lines(join(out, "rollouts.jsonl"))).toHaveLength(7);
    expect(lines(join(out, "training-batch.jsonl"))).toHaveLength(7);
    expect(metrics.some((line) => line.invalidAttempts > 0)).toBe(true);
    expect(metrics.reduce((sum, line) => sum + line.trainableRecords, 0)).toBeGreaterThan(0);
    expect(result.totals.episodes).toBe(7);

    for (let index = 0; index < 7; index++) {
      const folder = join(out, "episodes", `episode-${index}`);
      const riddle = JSON.parse(readFileSync(join(folder, "riddle.json"), "utf8")) as { episodeIndex: number; riddle: { riddle: string } | null };
      expect(riddle.episodeIndex).toBe(index);
      const report = JSON.parse(readFileSync(join(folder, "critic_report.json"), "utf8")) as { solveRate: number | null; reward: number; validity: unknown[] };
      expect(report.solveRate).toBe(metrics[index]?.solveRate);
      expect(report.reward).toBe(metrics[index]?.reward);
      expect(report.validity).toHaveLength(metrics[index]?.attempts as number);
      const runs = readFileSync(join(folder, "solver_runs.jsonl"), "utf8");
      expect(runs === "" ? 0 : runs.trimEnd().split("\n").length).toBe(metrics[index]?.solverRuns);
      expect(readFileSync(join(folder, "summary.md"), "utf8")).toContain(`# Episode ${index} (arithmetic)`);
    }
    const dataset = lines(join(out, "dataset.jsonl")).map((line) => RiddleDatasetEntrySchema.parse(line));
    expect(dataset.map((entry) => entry.episode)).toEqual(metrics.filter((line) => line.valid).map((line) => line.episode));

    // Excerpts: nothing before the first episode; then the last two entries, and the distilled lines after a compaction.
    expect(artifacts[0]).toEqual({ episodeIndex: 0, riddlerMemory: "", actorMemory: "", recentRiddles: [] });
    expect(artifacts[2]?.riddlerMemory).toMatch(/^recent:\n- ep 0 .*\n- ep 1 /);
    expect(artifacts[3]?.riddlerMemory).toMatch(/^distilled:\n- episodes 3: /);
    expect(artifacts[3]?.riddlerMemory).toMatch(/recent:\n- ep 1 .*\n- ep 2 [^\n]*$/);
    expect(artifacts[3]?.actorMemory).toMatch(/^distilled:\n- episodes 3: solver runs/);
    for (const artifact of artifacts) expect(artifact.recentRiddles.length).toBeLessThanOrEqual(2);
    const accepted = dataset.map((entry) => entry.riddle);
    expect(artifacts[6]?.recentRiddles).toEqual(dataset.filter((entry) => entry.episode < 6).map((entry) => entry.riddle).slice(-2));
    expect(accepted.length).toBeGreaterThan(0);

    // The memories: distilled at the top (compacted after episodes 3 and 6), every entry below.
    const riddlerMemory = readFileSync(join(out, "riddler_memory.md"), "utf8");
    expect(riddlerMemory).toMatch(/^# Riddler memory\n\n## Distilled\n\nCompacted after 6 episode\(s\)\.\n\n- episodes 6: /);
    expect(riddlerMemory.match(/^- ep \d+ /gm)).toHaveLength(7);
    expect(readFileSync(join(out, "actor_memory.md"), "utf8").match(/^- ep \d+ /gm)).toHaveLength(7);

    // The progress: every graded solver, with the count solved so far.
    expect(progress.length).toBe(metrics.reduce((sum, line) => sum + line.solverRuns, 0));
    const last = progress.at(-1) as RiddleCurriculumProgress;
    expect(last).toMatchObject({ episodes: 7, episodesDone: 6, solversRun: 4, solvedSoFar: metrics[6]?.solved });
  });

  it("gives byte-identical files for the same seed", async () => {
    const [first, second] = [join(scratch(), "a"), join(scratch(), "b")];
    await play(first);
    await play(second);
    for (const file of ["rollouts.jsonl", "metrics.jsonl", "dataset.jsonl", "riddler_memory.md", "actor_memory.md", "episodes/episode-4/summary.md"]) {
      expect(readFileSync(join(second, file)).equals(readFileSync(join(first, file))), file).toBe(true);
    }
  });

  it("answers inbox questions into the outbox between solvers, and rollouts.jsonl stays byte-identical", async () => {
    const [quiet, asked] = [join(scratch(), "quiet"), join(scratch(), "asked")];
    await play(quiet);
    const { result, client } = await play(asked, {
      onProgress: (progress) => {
        // Asked while episode 1's second solver is graded: answered before its third solver.
        if (progress.episodeIndex === 1 && progress.solversRun === 2) appendFileSync(join(asked, "actor_inbox.md"), "Which profile is doing best?\n- and why\n");
      },
    });
    expect(readFileSync(join(asked, "rollouts.jsonl")).equals(readFileSync(join(quiet, "rollouts.jsonl")))).toBe(true);
    expect(readFileSync(join(asked, "metrics.jsonl")).equals(readFileSync(join(quiet, "metrics.jsonl")))).toBe(true);
    expect(result.inboxAnswers).toBe(2);
    const outbox = readFileSync(join(asked, "actor_outbox.md"), "utf8");
    expect(outbox).toMatch(/^## Q1 \(episode 1, after solver 2\/4 \(solved so far \d\)\)\n\n> Which profile is doing best\?\n\nSolvers that check twice do best\.\n\n## Q2 [^\n]*\n\n> and why\n/);
    expect(readFileSync(join(quiet, "actor_outbox.md"), "utf8")).toBe("");
    // The answers drew their own seeds: the inbox's stream, one per question.
    const inboxSeeds = client.requests.filter((request) => request.messages[0]?.content.startsWith("You are the actor")).map((request) => request.sampler.seed);
    expect(inboxSeeds).toHaveLength(2);
    expect(new Set(inboxSeeds).size).toBe(2);
  });

  it("refuses a folder that already holds a run", async () => {
    const out = join(scratch(), "run");
    await play(out, { episodes: 1 });
    expect(existsSync(join(out, "config.json"))).toBe(true);
    await expect(play(out, { episodes: 1 })).rejects.toThrow(/out: .*choose another --out/);
  });

  it("records an episode that throws as failed (metrics line, summary.md) and goes on with the next", async () => {
    const out = join(scratch(), "run");
    const config = parseRiddleConfig({ solvers: 2, waveSize: 2 });
    const result = await runRiddleCurriculum({
      config,
      episodes: 3,
      out,
      client: new ScriptedInferenceClient({ rules: scriptedRiddleRules }),
      seed: 3,
      createEpisodes: (hooks) => {
        const episode = new ScriptedRiddleEpisode(config, hooks);
        const rollout = episode.rollout.bind(episode);
        episode.rollout = async (context, artifact) => {
          if (artifact.episodeIndex === 1) throw new Error("the riddler's engine went away");
          return rollout(context, artifact);
        };
        return [episode];
      },
    });
    expect(result.metrics.map((line) => line.status)).toEqual(["scored", "failed", "scored"]);
    expect(result.metrics[1]).toMatchObject({ error: "Error at rollout: the riddler's engine went away", reward: 0, running: { episodes: 2, failed: 1 } });
    expect(result.totals).toMatchObject({ episodes: 3, failed: 1 });
    expect(readFileSync(join(out, "episodes", "episode-1", "summary.md"), "utf8")).toBe("# Episode 1\n\nThe episode failed: Error at rollout: the riddler's engine went away\n");
    // A failed episode leaves no memory entry.
    expect(readFileSync(join(out, "riddler_memory.md"), "utf8").match(/^- ep \d+ /gm)).toEqual(["- ep 0 ", "- ep 2 "]);
  });
});
