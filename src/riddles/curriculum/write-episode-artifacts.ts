import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import type { RiddleConfig } from "../riddle-config.js";
import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import { criticReport } from "./critic-report.js";
import { formatEpisodeSummary } from "./format-episode-summary.js";

/** The files of one episode's folder, `<out>/episodes/episode-<index>/`. */
export const EPISODE_FILES = { riddle: "riddle.json", solverRuns: "solver_runs.jsonl", criticReport: "critic_report.json", summary: "summary.md" } as const;

export function episodeFolder(out: string, episodeIndex: number): string {
  return join(out, "episodes", `episode-${episodeIndex}`);
}

/**
 * Writes riddle.json (the accepted riddle and every attempt), solver_runs.jsonl,
 * critic_report.json and summary.md, each whole (write-then-rename);
 * summary.md last, so its presence says the folder is complete.
 */
export async function writeEpisodeArtifacts(out: string, outcome: RiddleEpisodeOutcome, config: RiddleConfig): Promise<string> {
  const folder = episodeFolder(out, outcome.episodeIndex);
  await mkdir(folder, { recursive: true });
  const report = criticReport(outcome, config);
  await writeFileAtomic(join(folder, EPISODE_FILES.riddle), json({ episodeIndex: outcome.episodeIndex, domain: outcome.domain, riddle: outcome.riddle, attempts: outcome.attempts }));
  await writeFileAtomic(join(folder, EPISODE_FILES.solverRuns), outcome.solverRuns.map((run) => `${JSON.stringify(run)}\n`).join(""));
  await writeFileAtomic(join(folder, EPISODE_FILES.criticReport), json(report));
  await writeFileAtomic(join(folder, EPISODE_FILES.summary), formatEpisodeSummary(outcome, report));
  return folder;
}

/** A failed episode's folder: summary.md saying what failed. */
export async function writeFailedEpisodeSummary(out: string, episodeIndex: number, error: string): Promise<void> {
  const folder = episodeFolder(out, episodeIndex);
  await mkdir(folder, { recursive: true });
  await writeFileAtomic(join(folder, EPISODE_FILES.summary), `# Episode ${episodeIndex}\n\nThe episode failed: ${error}\n`);
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
