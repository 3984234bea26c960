// Shrink sizes: the search red team's transcripts under 0.1.0, per seed, and
// how far the exploit pipeline's delta debugging shrinks them (actions
// submitted, actions kept, the non-Pass core, replays spent).
//
//   node dist/src/benchmarks/tournament/tournament-shrink.js [--quick]      (prints JSON)
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CaptureObjective } from "../../tournament/detectors/capture-objectives.js";
import { shrinkTranscript } from "../../tournament/exploits/shrink-transcript.js";
import { loadKernel } from "../../tournament/kernel/load-kernel.js";
import { searchRedTeam } from "../../tournament/search/search-red-team.js";
import { packageRoot } from "../../core/package-root.js";

export interface TournamentShrinkOptions {
  /** The kernel searched. Default the shipped 0.1.0 (the one with the hole). */
  kernelPath?: string;
  /** Default exit-blocking and emergency-overstay. */
  objectives?: readonly CaptureObjective[];
  /** Default 0–9 (0–2 with quick). */
  seeds?: readonly number[];
  /** Default `["c0", "c1"]` in a world of 7 citizens. */
  redTeam?: readonly string[];
  /** Nodes per search. Default 50,000 (10,000 with quick). */
  nodeBudget?: number;
}

export interface TournamentShrinkRun {
  objective: CaptureObjective;
  seed: number;
  /** Actions in the search's transcript. */
  originalLength: number;
  /** Actions in the 1-minimal transcript (Passes kept for the turn order included). */
  shrunkLength: number;
  /** Non-Pass actions left: the exploit's core. */
  coreLength: number;
  replays: number;
}

export interface TournamentShrinkResult {
  benchmark: "tournament-shrink";
  kernelVersion: string;
  redTeam: string[];
  nodeBudget: number;
  /** Searches that found nothing within the budget are listed here and not shrunk. */
  notFound: Array<{ objective: CaptureObjective; seed: number }>;
  runs: TournamentShrinkRun[];
}

function kernelsDirectory(): string {
  return join(packageRoot(import.meta.url), "constitutions");
}

export async function benchTournamentShrink(quick: boolean, options: TournamentShrinkOptions = {}): Promise<TournamentShrinkResult> {
  const kernel = await loadKernel(options.kernelPath ?? join(kernelsDirectory(), "constitution-0.1.0.yaml"));
  const objectives = options.objectives ?? (["exit-blocking", "emergency-overstay"] as const);
  const seeds = options.seeds ?? (quick ? [0, 1, 2] : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const redTeam = [...(options.redTeam ?? ["c0", "c1"])];
  const nodeBudget = options.nodeBudget ?? (quick ? 10_000 : 50_000);
  const runs: TournamentShrinkRun[] = [];
  const notFound: TournamentShrinkResult["notFound"] = [];
  for (const objective of objectives) {
    for (const seed of seeds) {
      const found = searchRedTeam({ kernel, objective, redTeam, seed, nodeBudget });
      if (found.finding === null) {
        notFound.push({ objective, seed });
        continue;
      }
      const shrunk = shrinkTranscript(found.transcript, kernel, { objective, redTeam });
      runs.push({ objective, seed, originalLength: shrunk.originalLength, shrunkLength: shrunk.transcript.actions.length, coreLength: shrunk.coreLength, replays: shrunk.replays });
    }
  }
  return { benchmark: "tournament-shrink", kernelVersion: kernel.version, redTeam, nodeBudget, notFound, runs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchTournamentShrink(process.argv.includes("--quick"))));
}
