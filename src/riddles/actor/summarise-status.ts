import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import type { SolverRun } from "../riddle-outcome.js";

/** Longest status line kept (the actor's summaries go into artifacts and progress output). */
const MAX_STATUS_CHARS = 300;

/**
 * The actor's periodic status (`statusEverySolvers`): a judge call, never a
 * Step, so asking for it does not change what is trained. The prompt stays
 * short: the bundled base's context is 256 bytes.
 */
export async function summariseStatus(context: EpisodeContext, riddle: string, runs: readonly SolverRun[], planned: number): Promise<string> {
  const solved = runs.filter((run) => run.correct);
  const names = (list: readonly SolverRun[]) => [...new Set(list.map((run) => run.profile))].join(",") || "none";
  const line = `status ${riddle.slice(0, 60)}: ${solved.length}/${runs.length} of ${planned} solved; right ${names(solved)}; wrong ${names(runs.filter((run) => !run.correct))}`;
  const text = await context.judge([
    { role: "system", content: "Actor: one line on how the run goes." },
    { role: "user", content: line },
  ]);
  return `${line} — ${text.trim().replace(/\s+/g, " ")}`.slice(0, MAX_STATUS_CHARS);
}
