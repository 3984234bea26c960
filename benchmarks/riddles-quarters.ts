// The riddle curriculum's figures by quarter of a run, from its folder: a
// `selfplay riddles` run (metrics.jsonl has one line per episode) or a
// `selfplay train --env riddles` run (one line per step, the environment's
// summary under `environment`, evaluations between them; rollouts.jsonl gives
// the riddler's reward spread within its GRPO groups).
//
//   node dist/benchmarks/riddles-quarters.js RUN_FOLDER [RUN_FOLDER …]      (prints JSON)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

type Line = Record<string, unknown>;

function readLines(path: string): Line[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);
}

/** `items` cut into four consecutive quarters (the last ones one longer when it does not divide). */
function quarters<T>(items: readonly T[]): T[][] {
  return [0, 1, 2, 3].map((quarter) => items.slice(Math.floor((quarter * items.length) / 4), Math.floor(((quarter + 1) * items.length) / 4)));
}

const ratio = (count: number, total: number) => (total === 0 ? null : count / total);
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** One quarter of a curriculum run's episodes. */
export interface CurriculumQuarter {
  episodes: number;
  valid: number;
  /** Valid riddles whose solve rate fell in the band / valid riddles. */
  bandShare: number | null;
  meanSolveRate: number | null;
  duplicateRate: number | null;
  invalidRate: number | null;
  solverCallsSaved: number;
  /** Calls saved / calls a run without early stopping would make. */
  solverCallsSavedShare: number | null;
  earlyStops: number;
}

export function curriculumQuarters(lines: readonly Line[]): CurriculumQuarter[] {
  return quarters(lines).map((episodes) => {
    const valid = episodes.filter((line) => line.valid === true);
    const saved = sum(episodes.map((line) => line.solverCallsSaved as number));
    const runs = sum(valid.map((line) => line.solverRuns as number));
    return {
      episodes: episodes.length,
      valid: valid.length,
      bandShare: ratio(valid.filter((line) => line.inBand === true).length, valid.length),
      meanSolveRate: ratio(sum(valid.map((line) => line.solveRate as number)), valid.length),
      duplicateRate: ratio(valid.filter((line) => line.nearDuplicate === true).length, valid.length),
      invalidRate: ratio(sum(episodes.map((line) => line.invalidAttempts as number)), sum(episodes.map((line) => line.attempts as number))),
      solverCallsSaved: saved,
      solverCallsSavedShare: ratio(saved, saved + runs),
      earlyStops: episodes.filter((line) => line.earlyStop !== null).length,
    };
  });
}

/** One quarter of a training run's steps. */
export interface TrainingQuarter {
  steps: number;
  riddleEpisodes: number;
  validRiddles: number;
  bandShare: number | null;
  meanSolveRate: number | null;
  duplicateRate: number | null;
  invalidRate: number | null;
  solverCallsSaved: number;
  meanRiddlerReward: number | null;
  trainedRecordsPerStep: number;
  /** Records left out, per step, by reason. */
  skippedRecordsPerStep: Record<string, number>;
  zeroAdvantageGroups: number | null;
  /** Mean over the riddler's GRPO groups of the standard deviation of their rewards (0: no signal for the riddler). */
  riddlerRewardSpread: number | null;
  /** Riddler groups whose rewards were all equal (zero advantage). */
  riddlerTiedGroups: number | null;
}

export function trainingQuarters(lines: readonly Line[], rollouts: readonly Line[]): TrainingQuarter[] {
  const steps = lines.filter((line) => typeof line.step === "number" && typeof line.environment === "object");
  const riddles = rollouts.filter((result) => (result.rollout as Line).episodeType === "riddle");
  const perStep = steps.length === 0 ? 0 : riddles.length / steps.length;
  return quarters(steps.map((line, index) => ({ line, index }))).map((quarter) => {
    const environment = quarter.map(({ line }) => line.environment as Record<string, number>);
    const valid = sum(environment.map((summary) => summary.validRiddles ?? 0));
    const rejected = sum(environment.map((summary) => summary.rejectedDrafts ?? 0));
    const skipped: Record<string, number> = {};
    for (const { line } of quarter) {
      for (const [reason, count] of Object.entries(line.skippedRecords as Record<string, number>)) skipped[reason] = (skipped[reason] ?? 0) + count / quarter.length;
    }
    const groups = new Map<string, number[]>();
    for (const { index } of quarter) {
      for (const result of riddles.slice(index * perStep, (index + 1) * perStep)) {
        const rollout = result.rollout as Line;
        const reward = (result.rewards as Record<string, number>).riddler;
        if (reward === undefined) continue;
        const group = String(rollout.groupId);
        groups.set(group, [...(groups.get(group) ?? []), reward]);
      }
    }
    const spreads = [...groups.values()].filter((rewards) => rewards.length > 1).map((rewards) => {
      const mean = sum(rewards) / rewards.length;
      return Math.sqrt(sum(rewards.map((reward) => (reward - mean) ** 2)) / rewards.length);
    });
    return {
      steps: quarter.length,
      riddleEpisodes: sum(environment.map((summary) => summary.riddleEpisodes ?? 0)),
      validRiddles: valid,
      bandShare: ratio(sum(environment.map((summary) => (summary.bandShare ?? 0) * (summary.validRiddles ?? 0))), valid),
      meanSolveRate: ratio(sum(environment.map((summary) => (summary.meanSolveRate ?? 0) * (summary.validRiddles ?? 0))), valid),
      duplicateRate: ratio(sum(environment.map((summary) => (summary.duplicateRate ?? 0) * (summary.validRiddles ?? 0))), valid),
      invalidRate: ratio(rejected, rejected + valid),
      solverCallsSaved: sum(environment.map((summary) => summary.solverCallsSaved ?? 0)),
      meanRiddlerReward: ratio(sum(environment.map((summary) => (summary.meanRiddlerReward ?? 0) * (summary.riddleEpisodes ?? 0))), sum(environment.map((summary) => summary.riddleEpisodes ?? 0))),
      trainedRecordsPerStep: sum(quarter.map(({ line }) => line.trainedRecords as number)) / Math.max(quarter.length, 1),
      skippedRecordsPerStep: skipped,
      zeroAdvantageGroups: ratio(sum(quarter.map(({ line }) => line.zeroAdvantageGroups as number)), quarter.length),
      riddlerRewardSpread: ratio(sum(spreads), spreads.length),
      riddlerTiedGroups: ratio(spreads.filter((spread) => spread === 0).length, spreads.length),
    };
  });
}

/** A run folder's quarters, and a training run's evaluations (the riddler's band share on held-out episodes). */
export function riddleRunQuarters(folder: string): Line {
  const lines = readLines(join(folder, "metrics.jsonl"));
  if (lines.some((line) => typeof line.episode === "number")) return { folder, kind: "curriculum", quarters: curriculumQuarters(lines) };
  return {
    folder,
    kind: "training",
    evaluations: lines.filter((line) => typeof line.heldOutAccuracy === "number").map((line) => ({ step: line.step, bandShare: line.heldOutAccuracy, validRiddles: line.n })),
    quarters: trainingQuarters(lines, readLines(join(folder, "rollouts.jsonl"))),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const folders = process.argv.slice(2);
  if (folders.length === 0) {
    process.stderr.write("usage: node dist/benchmarks/riddles-quarters.js RUN_FOLDER [RUN_FOLDER …]\n");
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(folders.map(riddleRunQuarters), null, 2)}\n`);
}
