import { deriveStream } from "../../core/random/random-stream.js";
import { actionMenu, type ActionMenuOptions } from "../agents/action-menu.js";
import type { HonestAgentOptions } from "../agents/honest-agent.js";
import type { CaptureObjective } from "../detectors/capture-objectives.js";
import { captureProgress, type CaptureFinding, type DetectionContext } from "../detectors/detect-captures.js";
import type { Kernel } from "../kernel/kernel.js";
import type { Transcript } from "../replay/transcript.js";
import type { Action } from "../world/actions.js";
import { TournamentWorld, type WorldConfigInput } from "../world/tournament-world.js";
import { HonestCohort, type CohortPosition } from "./honest-cohort.js";

export interface SearchRedTeamOptions {
  kernel: Kernel;
  objective: CaptureObjective;
  /** The red citizens, e.g. `["c0", "c1"]`; every other citizen plays HonestAgent. */
  redTeam: readonly string[];
  /** Seeds the world's turn order (unless `world.seed` is set), the honest agents' streams and, with the episode index, the search's tie-breaking. */
  seed: number;
  /** The world; `seed` fills in `world.seed` when it is absent. Default: 7 citizens, 1000 units, 2 factions. */
  world?: WorldConfigInput;
  /** Episode index for the honest agents' streams, agentStream(seed, episodeIndex, citizen). Default 0. */
  episodeIndex?: number;
  /** The honest agents' options, as the tournament gives them. Default: HonestAgent's defaults. */
  honest?: HonestAgentOptions;
  /** Candidate states kept after each round. Default 8. */
  beamWidth?: number;
  /**
   * Rounds played on from each leaf with the red citizens passing, to rank it
   * by the progress it holds without further red moves (a move that pays off
   * only a round later is then not lost among equals). Default 1; 0 ranks by
   * the progress made so far alone.
   */
  lookaheadRounds?: number;
  /** Rounds searched at most. Default 12. */
  maxRounds?: number;
  /** Nodes (red candidate actions tried, each with the honest replies up to the next red turn) expanded at most. Default 50000. */
  nodeBudget?: number;
  /** As playRounds: tries an honest citizen gets per turn before it passes. Default 3. */
  maxAttemptsPerTurn?: number;
  /** Which spends the red citizens consider; the team is always the red team. */
  menu?: Omit<ActionMenuOptions, "team">;
}

export interface SearchRedTeamResult {
  objective: CaptureObjective;
  redTeam: string[];
  /** The detector's finding on `transcript`, or null when the budget ran out first. */
  finding: CaptureFinding | null;
  /** captureProgress of `transcript` (the best reached when nothing was found). */
  progress: number;
  /** Every action played, honest and red, in order, ending with the round the finding was made in; all legal. */
  transcript: Transcript;
  /** The red citizens' own actions in `transcript`, in order, by citizen. */
  redActions: Record<string, Action[]>;
  nodesExpanded: number;
  /** Rounds the search completed. */
  roundsSearched: number;
}

interface Leaf {
  environment: TournamentWorld;
  position: CohortPosition;
  progress: number;
  finding: CaptureFinding | null;
  /** Progress after `lookaheadRounds` more rounds with the red citizens passing. */
  outlook: number;
  /** Seeded tie-break among equal progress. */
  draw: number;
}

/**
 * The search red team: a beam search over the red citizens' legal moves,
 * round by round. From each kept state it tries every combination of the red
 * citizens' candidate actions (actionMenu) within the next round, the honest
 * citizens answering by their own seeded policies, and ranks the states at
 * the round's end by captureProgress for the objective — first as it would
 * stand after `lookaheadRounds` more rounds of red passes, then as it stands —
 * ties going by a seeded draw. It knows nothing of any particular hole: it stops at the first state
 * in which the objective's detector fires, or when the rounds or the node
 * budget run out, and returns the best transcript it reached.
 */
export function searchRedTeam(options: SearchRedTeamOptions): SearchRedTeamResult {
  const { kernel, objective, seed } = options;
  const redTeam = [...options.redTeam];
  const beamWidth = options.beamWidth ?? 8;
  const maxRounds = options.maxRounds ?? 12;
  const nodeBudget = options.nodeBudget ?? 50_000;
  const lookaheadRounds = options.lookaheadRounds ?? 1;
  const root = new TournamentWorld(kernel, { ...options.world, seed: options.world?.seed ?? seed });
  for (const citizen of redTeam) {
    if (!root.citizens().includes(citizen)) throw new Error(`redTeam: ${citizen} is not a citizen of this world (citizens are c0 … c${root.citizens().length - 1})`);
  }
  const context: DetectionContext = { kernel, world: root.config, redTeam };
  const episodeIndex = options.episodeIndex ?? 0;
  const honest = new HonestCohort(root.citizens().filter((citizen) => !redTeam.includes(citizen)), seed, episodeIndex, options.honest ?? {}, options.maxAttemptsPerTurn ?? 3);
  const ties = deriveStream(seed, "tournament", "search", String(episodeIndex), objective);
  const menuOptions: ActionMenuOptions = { ...options.menu, team: redTeam };
  let nodesExpanded = 0;

  const score = (environment: TournamentWorld, position: CohortPosition): Leaf => {
    const { progress, finding } = captureProgress(objective, environment.events, context);
    return { environment, position, progress, finding, outlook: finding === null ? outlook(environment, position) : progress, draw: ties.uint32() };
  };
  const outlook = (environment: TournamentWorld, position: CohortPosition): number => {
    if (lookaheadRounds === 0) return 0;
    const probe = environment.clone();
    honest.moveTo(position);
    const until = probe.turn + lookaheadRounds;
    for (let actor = probe.actorOnTurn; actor !== null && probe.turn < until; actor = probe.actorOnTurn) {
      if (honest.has(actor)) honest.playTurns(probe, probe.turn);
      else probe.step({ type: "Pass", actor });
    }
    return captureProgress(objective, probe.events, context).progress;
  };
  let beam: Leaf[] = [score(root, honest.position())];
  let best = beam[0] as Leaf;
  let roundsSearched = 0;

  search: for (let round = 0; round < maxRounds; round++) {
    const leaves: Leaf[] = [];
    // Depth-first through the red turns of this round; a leaf is a state at the round's end.
    const explore = (environment: TournamentWorld, position: CohortPosition): Leaf | null => {
      honest.moveTo(position);
      honest.playTurns(environment, round);
      const after = honest.position();
      const actor = environment.actorOnTurn;
      if (environment.turn !== round || actor === null) {
        const leaf = score(environment, after);
        leaves.push(leaf);
        return leaf.finding === null ? null : leaf;
      }
      for (const action of actionMenu(environment.state, actor, kernel, menuOptions)) {
        if (nodesExpanded >= nodeBudget) return null;
        const child = environment.clone();
        child.step(action);
        nodesExpanded += 1;
        const found = explore(child, after);
        if (found !== null) return found;
      }
      return null;
    };
    for (const state of beam) {
      if (state.environment.actorOnTurn === null) continue;
      const found = explore(state.environment.clone(), state.position);
      if (found !== null) {
        best = found;
        roundsSearched = round + 1;
        break search;
      }
    }
    if (leaves.length === 0) break;
    leaves.sort((a, b) => b.outlook - a.outlook || b.progress - a.progress || a.draw - b.draw);
    beam = leaves.slice(0, beamWidth);
    // Later rounds win ties: the longest transcript at the best progress.
    if ((beam[0] as Leaf).progress >= best.progress) best = beam[0] as Leaf;
    // A round cut short by the budget is not complete.
    if (nodesExpanded >= nodeBudget) break;
    roundsSearched = round + 1;
  }

  const actions = best.environment.actions;
  return {
    objective,
    redTeam,
    finding: best.finding,
    progress: best.progress,
    transcript: { kernelVersion: kernel.version, world: best.environment.config, actions: [...best.environment.submissions] },
    redActions: Object.fromEntries(redTeam.map((citizen) => [citizen, actions.filter((action) => action.actor === citizen)])),
    nodesExpanded,
    roundsSearched,
  };
}
