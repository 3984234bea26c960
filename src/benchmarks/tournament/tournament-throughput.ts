// Tournament throughput with scripted agents: episodes per second of whole
// tournaments (honest citizens and the scripted red team, objectives rotating,
// detectors, metrics and the report), per shipped kernel.
//
//   node dist/src/benchmarks/tournament/tournament-throughput.js [--quick]      (prints JSON)
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { runTournament } from "../../tournament/tournament/run-tournament.js";
import { packageRoot } from "../../core/package-root.js";

export interface TournamentThroughputOptions {
  /** Constitution files, by path. Default the shipped 0.1.0 and 0.2.0. */
  kernelPaths?: readonly string[];
  /** Episodes per timed tournament. Default 200 (20 with quick). */
  episodes?: number;
  /** Rounds per episode. Default 12. */
  rounds?: number;
  /** Timed repetitions; the median is reported. Default 3. */
  repeats?: number;
  /** Tournament seed. Default 0. */
  seed?: number;
}

export interface TournamentThroughputCell {
  kernelVersion: string;
  episodes: number;
  rounds: number;
  /** Submissions (refused ones included) and events over one tournament. */
  actions: number;
  events: number;
  /** Median over the repeats. */
  seconds: number;
  episodesPerSecond: number;
  actionsPerSecond: number;
  /** Each repeat's episodes per second, in order. */
  repeats: number[];
}

export interface TournamentThroughputResult {
  benchmark: "tournament-throughput";
  numCitizens: number;
  agents: "honest + scripted red (2 citizens, objectives rotating)";
  cells: TournamentThroughputCell[];
}

/** The package's kernels folder (this file is benchmarks/ in the source, dist/benchmarks/ when built). */
function kernelsDirectory(): string {
  return join(packageRoot(import.meta.url), "constitutions");
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function benchTournamentThroughput(quick: boolean, options: TournamentThroughputOptions = {}): Promise<TournamentThroughputResult> {
  const kernelPaths = options.kernelPaths ?? ["constitution-0.1.0.yaml", "constitution-0.2.0.yaml"].map((file) => join(kernelsDirectory(), file));
  const episodes = options.episodes ?? (quick ? 20 : 200);
  const rounds = options.rounds ?? 12;
  const repeats = options.repeats ?? 3;
  const seed = options.seed ?? 0;
  const cells: TournamentThroughputCell[] = [];
  for (const path of kernelPaths) {
    const kernel = await loadKernel(path);
    // One untimed run warms the JIT and gives the (deterministic) action and event counts.
    const { report } = await runTournament({ kernel, seed, episodes, rounds });
    const seconds: number[] = [];
    for (let repeat = 0; repeat < repeats; repeat++) {
      const started = performance.now();
      await runTournament({ kernel, seed, episodes, rounds });
      seconds.push((performance.now() - started) / 1000);
    }
    const actions = report.episodeResults.reduce((sum, episode) => sum + episode.actions, 0);
    const events = report.episodeResults.reduce((sum, episode) => sum + episode.events, 0);
    const typical = median(seconds);
    cells.push({
      kernelVersion: kernel.version,
      episodes,
      rounds,
      actions,
      events,
      seconds: round(typical, 4),
      episodesPerSecond: round(episodes / typical, 1),
      actionsPerSecond: Math.round(actions / typical),
      repeats: seconds.map((value) => round(episodes / value, 1)),
    });
  }
  return { benchmark: "tournament-throughput", numCitizens: 7, agents: "honest + scripted red (2 citizens, objectives rotating)", cells };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchTournamentThroughput(process.argv.includes("--quick"))));
}
