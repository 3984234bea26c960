import type { RandomStream } from "../../core/random/random-stream.js";
import type { FailedRun } from "./failed-run.js";
import type { FailedRunJournalView } from "./failed-run-journal-view.js";

export interface MineJournalOptions {
  /** Distinct failed challenges, most recent first, that mining draws from. Default 20. */
  window?: number;
  /**
   * Failures of one challenge from which mining asks for a variation instead
   * of a retry: a challenge that beat the solver this often is more likely
   * out of reach as it stands. Default 2.
   */
  varyAfterFailures?: number;
}

/** A challenge seed mined from the journal. */
export interface JournalSeed {
  /** `retry`: play the recorded challenge again. `vary`: have the generator write a variation of it. */
  mode: "retry" | "vary";
  /** The most recent failed run of the challenge (its challenge, cluster and error). */
  run: FailedRun;
  /** Times the journal records this challenge failing. */
  failures: number;
  /** Every recorded error summary of the challenge, oldest first: hints for a variation. */
  errorSummaries: string[];
}

/**
 * Journal mining: draws one recently failed challenge outside the saturated
 * clusters (a saturated cluster is already aced; its old failures teach
 * nothing new), uniformly from the stream, among the `window` most recent
 * distinct challenges. Null when no such failure is recorded.
 */
export function mineJournal(
  journal: FailedRunJournalView,
  random: RandomStream,
  saturatedClusters: Iterable<string>,
  options: MineJournalOptions = {},
): JournalSeed | null {
  const window = options.window ?? 20;
  const varyAfterFailures = options.varyAfterFailures ?? 2;
  const saturated = new Set(saturatedClusters);
  const byChallenge = new Map<string, FailedRun[]>();
  for (const run of journal.runs) {
    if (saturated.has(run.cluster)) continue;
    const runs = byChallenge.get(run.challenge.hash) ?? [];
    runs.push(run);
    byChallenge.set(run.challenge.hash, runs);
  }
  // Most recent first: order challenges by the position of their latest failure.
  const latestIndex = new Map<string, number>();
  journal.runs.forEach((run, index) => latestIndex.set(run.challenge.hash, index));
  const recent = [...byChallenge.keys()].sort((a, b) => (latestIndex.get(b) ?? 0) - (latestIndex.get(a) ?? 0)).slice(0, window);
  if (recent.length === 0) return null;
  const runs = byChallenge.get(recent[random.integer(recent.length)] as string) as FailedRun[];
  return {
    mode: runs.length >= varyAfterFailures ? "vary" : "retry",
    run: runs[runs.length - 1] as FailedRun,
    failures: runs.length,
    errorSummaries: runs.map((run) => run.errorSummary),
  };
}
