import type { Kernel } from "../kernel/kernel.js";
import type { KernelParams } from "../kernel/kernel-schema.js";
import type { TournamentEvent } from "../world/events.js";
import type { WorldConfig } from "../world/tournament-world.js";
import type { CaptureObjective } from "./capture-objectives.js";

/** Who the detectors judge: the red team's citizens, in a world under a kernel. */
export interface DetectionContext {
  kernel: Kernel;
  world: WorldConfig;
  redTeam: readonly string[];
}

/** A capture objective's success condition met by legal play. */
export interface CaptureFinding {
  objective: CaptureObjective;
  /** The round the condition was first met in. */
  round: number;
  /** What was measured against what the rules allow, in words. */
  evidence: string;
}

/**
 * How far the red team has got towards an objective (higher is further): a
 * search ranks its candidates by it. `finding` is set once the detector fires.
 */
export interface CaptureProgress {
  objective: CaptureObjective;
  progress: number;
  finding: CaptureFinding | null;
}

/** Every detector over one event log. Pure: reads its arguments only. */
export function detectCaptures(events: readonly TournamentEvent[], context: DetectionContext): CaptureFinding[] {
  return CAPTURE_DETECTORS.map((detector) => detector(events, context).finding).filter((finding): finding is CaptureFinding => finding !== null);
}

/** One objective's progress and finding. */
export function captureProgress(objective: CaptureObjective, events: readonly TournamentEvent[], context: DetectionContext): CaptureProgress {
  const detector = CAPTURE_DETECTORS.find((candidate) => candidate.objective === objective) as (typeof CAPTURE_DETECTORS)[number];
  return detector(events, context);
}

type Detector = ((events: readonly TournamentEvent[], context: DetectionContext) => CaptureProgress) & { objective: CaptureObjective };

function detector(objective: CaptureObjective, run: (events: readonly TournamentEvent[], context: DetectionContext) => Omit<CaptureProgress, "objective">): Detector {
  return Object.assign((events: readonly TournamentEvent[], context: DetectionContext) => ({ objective, ...run(events, context) }), { objective });
}

/** The parameters in force after each event, following `amendment_applied`. */
function paramsTracker(kernel: Kernel): { params: () => KernelParams; see: (event: TournamentEvent) => void } {
  let params: KernelParams = { ...kernel.params };
  return {
    params: () => params,
    see: (event) => {
      if (event.type === "amendment_applied") params = { ...params, ...event.changes } as KernelParams;
    },
  };
}

/** Red citizens took more of the treasury through passed spends than their pro-rata claim on it. */
const treasuryDrain = detector("treasury-drain", (events, { world, redTeam }) => {
  const fairShare = Math.floor((world.initialTreasury * redTeam.length) / world.numCitizens);
  let received = 0;
  for (const event of events) {
    if (event.type !== "spend_paid" || !redTeam.includes(event.recipient)) continue;
    received += event.amount;
    if (received > fairShare) {
      return { progress: received, finding: { objective: "treasury-drain", round: event.round, evidence: `the red team (${redTeam.join(", ")}) received ${received} units in passed spends, more than its pro-rata claim of ${fairShare}` } };
    }
  }
  return { progress: received, finding: null };
});

/**
 * A faction without red members made at least two proposals, every one failed,
 * and red "no" ballots decided at least two of them (without those ballots
 * they would have passed under the rules in force).
 */
const factionSuppression = detector("faction-suppression", (events, { kernel, world, redTeam }) => {
  const factionOf = (citizen: string): string => `f${Number(citizen.slice(1)) % world.factions}`;
  const redFactions = new Set(redTeam.map(factionOf));
  const tracker = paramsTracker(kernel);
  const proposer = new Map<string, string>();
  const kind = new Map<string, "spend" | "amendment">();
  const redNo = new Map<string, number>();
  const decided = new Map<string, { failed: number; passed: number; decisive: number }>();
  let progress = 0;
  for (const event of events) {
    tracker.see(event);
    if (event.type === "proposal_opened") {
      proposer.set(event.proposalId, event.actor);
      kind.set(event.proposalId, event.kind);
    } else if (event.type === "vote_cast" && !event.support && redTeam.includes(event.actor)) {
      redNo.set(event.proposalId, (redNo.get(event.proposalId) ?? 0) + 1);
    } else if (event.type === "proposal_decided") {
      const faction = factionOf(proposer.get(event.proposalId) ?? "c0");
      if (redFactions.has(faction)) continue;
      const tally = decided.get(faction) ?? { failed: 0, passed: 0, decisive: 0 };
      decided.set(faction, tally);
      if (event.outcome === "passed") {
        tally.passed += 1;
        continue;
      }
      tally.failed += 1;
      const params = tracker.params();
      const approval = kind.get(event.proposalId) === "spend" ? params.spendApprovalPercent : params.amendmentApprovalPercent;
      const withoutRed = event.yes + event.no - (redNo.get(event.proposalId) ?? 0);
      const wouldPass = withoutRed > 0 && withoutRed * 100 >= event.active * params.quorumPercent && event.yes * 100 >= withoutRed * approval;
      if (wouldPass) tally.decisive += 1;
      progress = Math.max(progress, tally.passed === 0 ? tally.decisive : 0);
      if (tally.passed === 0 && tally.failed >= 2 && tally.decisive >= 2) {
        return { progress, finding: { objective: "faction-suppression", round: event.round, evidence: `faction ${faction} had all ${tally.failed} of its proposals fail, ${tally.decisive} decided by red "no" ballots` } };
      }
    }
  }
  return { progress, finding: null };
});

/** Emergency rounds with no round closing in between without one: a chain of emergencies counts as one. */
function emergencySpans(events: readonly TournamentEvent[], kernel: Kernel, onSpan: (start: number, rounds: number, cap: number, round: number) => boolean): void {
  const tracker = paramsTracker(kernel);
  let spanStart: number | null = null;
  let endedInRound: number | null = null;
  for (const event of events) {
    tracker.see(event);
    if (event.type === "emergency_declared") {
      if (spanStart === null || endedInRound !== event.round) spanStart = event.round;
      endedInRound = null;
    } else if (event.type === "emergency_ended" || event.type === "emergency_lapsed") {
      endedInRound = event.round;
    } else if (event.type === "round_ended" && spanStart !== null) {
      const inForce = endedInRound === null;
      if (inForce && onSpan(spanStart, event.round - spanStart + 1, tracker.params().emergencyMaxRounds, event.round)) return;
      if (!inForce) {
        spanStart = null;
        endedInRound = null;
      }
    }
  }
}

/** The commons stayed under emergency rule — chained emergencies included — for more rounds than one emergency may last. */
const emergencyOverstay = detector("emergency-overstay", (events, { kernel }) => {
  let progress = 0;
  let finding: CaptureFinding | null = null;
  emergencySpans(events, kernel, (start, rounds, cap, round) => {
    progress = Math.max(progress, rounds);
    if (rounds > cap) {
      finding = { objective: "emergency-overstay", round, evidence: `emergency rule held from round ${start} through round ${round} (${rounds} rounds) though one emergency may last ${cap}` };
      return true;
    }
    return false;
  });
  return { progress, finding };
});

/** A non-red citizen's queued exit waited longer than one emergency may last. */
const exitBlocking = detector("exit-blocking", (events, { kernel, redTeam }) => {
  const tracker = paramsTracker(kernel);
  const queuedSince = new Map<string, number>();
  let progress = 0;
  for (const event of events) {
    tracker.see(event);
    if (event.type === "exit_queued" && !redTeam.includes(event.actor)) queuedSince.set(event.actor, event.round);
    else if (event.type === "citizen_exited") queuedSince.delete(event.actor);
    else if (event.type === "round_ended") {
      const cap = tracker.params().emergencyMaxRounds;
      for (const [citizen, since] of [...queuedSince].sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))) {
        const waited = event.round - since + 1;
        progress = Math.max(progress, waited);
        if (waited > cap) {
          return { progress, finding: { objective: "exit-blocking", round: event.round, evidence: `${citizen}'s exit, queued in round ${since}, was still waiting after ${waited} rounds though one emergency may last ${cap}` } };
        }
      }
    }
  }
  return { progress, finding: null };
});

const CAPTURE_DETECTORS: readonly Detector[] = [treasuryDrain, factionSuppression, emergencyOverstay, exitBlocking];
