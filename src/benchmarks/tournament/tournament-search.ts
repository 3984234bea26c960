// Search cost to the first exploit: how many nodes (red candidate moves tried,
// each with the honest replies to the next red turn) and milliseconds the search
// red team needs, per seed, before its capture detector fires.
//
//   node dist/src/benchmarks/tournament/tournament-search.js [--quick]      (prints JSON)
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CaptureObjective } from "../../tournament/detectors/capture-objectives.js";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { replayTranscript } from "../../tournament/replay/replay-transcript.js";
import { searchRedTeam } from "../../tournament/search/search-red-team.js";
import { packageRoot } from "../../core/package-root.js";

export interface TournamentSearchBenchOptions {
  /** Constitution files searched, by path. Default the shipped 0.1.0 and 0.2.0 (the amendment that closes the chained-emergency hole). */
  kernelPaths?: readonly string[];
  /** Default exit-blocking and emergency-overstay (the objectives 0.1.0's hole serves). */
  objectives?: readonly CaptureObjective[];
  /** Default 0–9 (0–2 with quick). */
  seeds?: readonly number[];
  /** Default `["c0", "c1"]` in a world of 7 citizens. */
  redTeam?: readonly string[];
  /** Nodes per search. Default 50,000 (10,000 with quick). */
  nodeBudget?: number;
  /** Default 8. */
  beamWidth?: number;
}

export interface TournamentSearchRun {
  kernelVersion: string;
  objective: CaptureObjective;
  seed: number;
  found: boolean;
  /** Round the detector fired in; null when the budget ran out. */
  findingRound: number | null;
  /** Nodes expanded: to the first finding when found, else the whole budget. */
  nodes: number;
  milliseconds: number;
  transcriptActions: number;
  /** Rejections when the transcript is replayed under its own kernel (always 0). */
  replayRejections: number;
}

export interface TournamentSearchSummary {
  kernelVersion: string;
  objective: CaptureObjective;
  seeds: number;
  found: number;
  foundSeeds: number[];
  /** Over the seeds with a finding; null when none. */
  medianNodesToFinding: number | null;
  medianMillisecondsToFinding: number | null;
}

export interface TournamentSearchBenchResult {
  benchmark: "tournament-search";
  numCitizens: number;
  redTeam: string[];
  nodeBudget: number;
  beamWidth: number;
  runs: TournamentSearchRun[];
  summary: TournamentSearchSummary[];
}

/** The package's kernels folder (this file is benchmarks/ in the source, dist/benchmarks/ when built). */
function kernelsDirectory(): string {
  return join(packageRoot(import.meta.url), "constitutions");
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export async function benchTournamentSearch(quick: boolean, options: TournamentSearchBenchOptions = {}): Promise<TournamentSearchBenchResult> {
  const kernelPaths = options.kernelPaths ?? ["constitution-0.1.0.yaml", "constitution-0.2.0.yaml"].map((file) => join(kernelsDirectory(), file));
  const objectives = options.objectives ?? (["exit-blocking", "emergency-overstay"] as const);
  const seeds = options.seeds ?? (quick ? [0, 1, 2] : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const redTeam = [...(options.redTeam ?? ["c0", "c1"])];
  const nodeBudget = options.nodeBudget ?? (quick ? 10_000 : 50_000);
  const beamWidth = options.beamWidth ?? 8;
  const runs: TournamentSearchRun[] = [];
  const summary: TournamentSearchSummary[] = [];
  for (const path of kernelPaths) {
    const kernel = await loadKernel(path);
    for (const objective of objectives) {
      const found: TournamentSearchRun[] = [];
      for (const seed of seeds) {
        const started = performance.now();
        const result = searchRedTeam({ kernel, objective, redTeam, seed, nodeBudget, beamWidth });
        const milliseconds = performance.now() - started;
        const run: TournamentSearchRun = {
          kernelVersion: kernel.version,
          objective,
          seed,
          found: result.finding !== null,
          findingRound: result.finding?.round ?? null,
          nodes: result.nodesExpanded,
          milliseconds: Math.round(milliseconds),
          transcriptActions: result.transcript.actions.length,
          replayRejections: replayTranscript(result.transcript, kernel).rejected,
        };
        runs.push(run);
        if (run.found) found.push(run);
      }
      summary.push({
        kernelVersion: kernel.version,
        objective,
        seeds: seeds.length,
        found: found.length,
        foundSeeds: found.map((run) => run.seed),
        medianNodesToFinding: median(found.map((run) => run.nodes)),
        medianMillisecondsToFinding: median(found.map((run) => run.milliseconds)),
      });
    }
  }
  return { benchmark: "tournament-search", numCitizens: 7, redTeam, nodeBudget, beamWidth, runs, summary };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchTournamentSearch(process.argv.includes("--quick"))));
}
