import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { Arena } from "../../arena/arena.js";
import { RunDirectory } from "../../arena/run-directory.js";
import type { Episode } from "../../core/episodes/episode.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import type { JsonObject } from "../../core/json.js";
import { ActorInbox } from "../inbox/actor-inbox.js";
import { RiddleMemories } from "../memory/riddle-memories.js";
import type { RiddleArtifact } from "../riddle-artifact.js";
import type { RiddleConfig } from "../riddle-config.js";
import type { RiddleEpisodeHooks, RiddleProgress } from "../riddle-episode-hooks.js";
import { RiddleEpisodeOutcomeSchema } from "../riddle-outcome.js";
import { riddleDatasetEntry } from "./riddle-dataset-entry.js";
import { RiddleMetricsTotals, type RiddleEpisodeMetrics } from "./riddle-episode-metrics.js";
import { writeEpisodeArtifacts, writeFailedEpisodeSummary } from "./write-episode-artifacts.js";

/** The episodes a curriculum plays, made with the curriculum's hooks: the riddle episode first, then any sub-episodes it runs. */
export type RiddleEpisodesFactory = (hooks: RiddleEpisodeHooks) => readonly Episode[];

/** Where a curriculum stands, for progress bars: an episode's solvers as they are graded. */
export interface RiddleCurriculumProgress extends RiddleProgress {
  /** Episodes finished before this one. */
  episodesDone: number;
  episodes: number;
}

export interface RiddleCurriculumOptions {
  /** The parsed curriculum config (parseRiddleConfig). */
  config: RiddleConfig;
  /** Episodes to play, an integer ≥ 1. */
  episodes: number;
  /** The run folder; created, and refused when it already holds a run. */
  out: string;
  /** Plays the riddler, solvers and partners (Roles: their calls are Steps). */
  client: InferenceClient;
  /** The critic's client (judge calls, never Steps). Default `client`. */
  judgeClient?: InferenceClient;
  /** Answers actor_inbox.md (judge calls with their own seed stream). Default `judgeClient`, else `client`. */
  inboxClient?: InferenceClient;
  /** Run seed, an unsigned 32-bit integer: episodes and inbox answers derive their streams from it. */
  seed: number;
  createEpisodes: RiddleEpisodesFactory;
  /** Extra facts for config.json (the model's file name, say); never paths or times, so the same seed gives the same folder. */
  runInfo?: JsonObject;
  /** After each graded solver. */
  onProgress?: (progress: RiddleCurriculumProgress) => void;
  /** After each episode's files are written. */
  onEpisodeEnd?: (metrics: RiddleEpisodeMetrics) => void;
}

/** File names a curriculum adds to its run folder (besides rollouts.jsonl, metrics.jsonl, training-batch.jsonl, the memories and the inbox). */
export const CURRICULUM_FILES = { dataset: "dataset.jsonl" } as const;

export interface RiddleCurriculumResult {
  out: string;
  /** One per episode, as in metrics.jsonl. */
  metrics: RiddleEpisodeMetrics[];
  /** The run's rates after the last episode. */
  totals: RiddleEpisodeMetrics["running"];
  inboxAnswers: number;
}

/**
 * The riddle curriculum: for each episode, the memories' excerpts and the
 * recent accepted riddles go into a RiddleArtifact; the arena plays it (one
 * rollout, appended to rollouts.jsonl); the episode's files, its dataset and
 * metrics lines and both memories' entries are written; the memories are
 * compacted on schedule. Every file is append-only or written whole, so a
 * killed run leaves each one readable.
 */
export async function runRiddleCurriculum(options: RiddleCurriculumOptions): Promise<RiddleCurriculumResult> {
  const { config, out, seed } = options;
  if (!Number.isInteger(options.episodes) || options.episodes < 1) throw new InvalidInputError("episodes", "an integer ≥ 1", options.episodes);
  const directory = await RunDirectory.create(out, { kind: "riddles", seed, episodes: options.episodes, config, ...options.runInfo });
  try {
    // Present from the start, empty until a riddle is accepted.
    await appendFile(join(out, CURRICULUM_FILES.dataset), "");
    const memories = await RiddleMemories.create(out, config);
    const inbox = await ActorInbox.create({ folder: out, client: options.inboxClient ?? options.judgeClient ?? options.client, seed });
    let episodesDone = 0;
    const hooks: RiddleEpisodeHooks = {
      onSolverGraded: (progress) => options.onProgress?.({ ...progress, episodesDone, episodes: options.episodes }),
      betweenSolvers: async (progress) => void (await inbox.answerPending(progress)),
    };
    const [episode, ...subEpisodes] = options.createEpisodes(hooks);
    if (episode === undefined) throw new InvalidInputError("createEpisodes", "a factory returning the riddle episode first", []);
    const arena = new Arena({ client: options.client, ...(options.judgeClient && { judgeClient: options.judgeClient }), seed, concurrency: 1 });
    try {
      arena.register(episode);
      for (const sub of subEpisodes) arena.register(sub);
      const totals = new RiddleMetricsTotals(config);
      const allMetrics: RiddleEpisodeMetrics[] = [];
      const recentRiddles: string[] = [];
      for (let index = 0; index < options.episodes; index++) {
        // Rollout: one riddle episode through the arena.
        const artifact: RiddleArtifact = { episodeIndex: index, ...memories.excerpts(), recentRiddles: [...recentRiddles] };
        const results = await arena.generateRollouts([{ episodeType: episode.type, artifact }]);
        const result = results[0];
        if (result === undefined) throw new Error(`episode ${index}: the arena returned no result`);
        await directory.rollouts.append(result);
        const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), index);
        await directory.trainingBatches.append(batch);

        // Artifacts, dataset, metrics, memories.
        let metrics: RiddleEpisodeMetrics;
        if (result.outcome.status === "failed") {
          const error = `${result.outcome.error.name} at ${result.outcome.stage}: ${result.outcome.error.message}`;
          await writeFailedEpisodeSummary(out, index, error);
          metrics = totals.addFailure(index, error);
        } else {
          const outcome = RiddleEpisodeOutcomeSchema.parse(result.rollout.artifacts);
          await writeEpisodeArtifacts(out, outcome, config);
          const entry = riddleDatasetEntry(outcome);
          if (entry !== null) await appendFile(join(out, CURRICULUM_FILES.dataset), `${JSON.stringify(entry)}\n`);
          if (outcome.riddle !== null) {
            recentRiddles.push(outcome.riddle.riddle);
            // Only the window is ever compared against.
            if (recentRiddles.length > config.duplicates.window) recentRiddles.shift();
          }
          metrics = totals.add(outcome, batch.records.length);
          await memories.record(outcome);
        }
        await directory.metrics.append(metrics);
        allMetrics.push(metrics);
        episodesDone = index + 1;
        // Questions asked after the last solver are answered before the next episode.
        await inbox.answerPending(null);
        options.onEpisodeEnd?.(metrics);
      }
      return { out, metrics: allMetrics, totals: totals.running(), inboxAnswers: inbox.answeredCount };
    } finally {
      await arena.close();
    }
  } finally {
    await directory.close();
  }
}
