import { describe, expect, it } from "vitest";
import { citizenWelfare } from "../../../src/tournament/metrics/citizen-welfare.js";
import { compareEpisodeMetrics } from "../../../src/tournament/metrics/compare-episode-metrics.js";
import { episodeMetrics, type EpisodeMetrics } from "../../../src/tournament/metrics/episode-metrics.js";
import type { TournamentEvent } from "../../../src/tournament/world/events.js";
import type { WorldState } from "../../../src/tournament/world/world-state.js";

function world(treasury: number, citizens: Array<[balance: number, status: "active" | "exited"]>): WorldState {
  return {
    round: 3,
    turnOrder: [],
    turnIndex: 0,
    treasury,
    citizens: citizens.map(([balance, status], index) => ({ id: `c${index}`, faction: `f${index % 2}`, status, balance, exitQueuedRound: null })),
    proposals: [],
    emergency: null,
    lastEmergencyEndRound: null,
    paramOverrides: {},
  };
}

const round = (seq: number, roundNumber: number): TournamentEvent => ({ seq, round: roundNumber, type: "round_ended", nextTurnOrder: [] });

describe("citizenWelfare", () => {
  it("is the balance plus floor(treasury / active) for active citizens, the balance alone once exited", () => {
    // 100 / 3 active = 33 (remainder 1 stays in the treasury).
    expect(citizenWelfare(world(100, [[5, "active"], [40, "exited"], [0, "active"], [7, "active"]])).map((entry) => [entry.claim, entry.welfare])).toEqual([
      [33, 38],
      [0, 40],
      [33, 33],
      [33, 40],
    ]);
  });

  it("gives no claim when nobody is active", () => {
    expect(citizenWelfare(world(9, [[1, "exited"]]))[0]?.welfare).toBe(1);
  });
});

describe("episodeMetrics", () => {
  it("scores the worst-off honest citizen, red excess, turnout and ordinary rounds, all integers", () => {
    // Total 1000 + 300 = 1300; red c0 holds 300 + 200 = 500 of welfare; its fair share is floor(1300 × 1 / 5) = 260: excess 240.
    const state = world(1000, [[300, "active"], [0, "active"], [0, "active"], [0, "active"], [0, "active"]]);
    const events: TournamentEvent[] = [
      { seq: 0, round: 0, type: "proposal_decided", proposalId: "p0", outcome: "passed", yes: 3, no: 0, active: 5, reason: "", article: "Art. 5" },
      { seq: 1, round: 0, type: "emergency_declared", actor: "c0", reason: "" },
      round(2, 0),
      { seq: 3, round: 1, type: "rejected", action: { type: "Pass", actor: "c1" }, reason: "turn", article: "Art. 1" },
      { seq: 4, round: 1, type: "emergency_ended", actor: "c0", lastedRounds: 2 },
      round(5, 1),
      { seq: 6, round: 2, type: "proposal_decided", proposalId: "p1", outcome: "failed", yes: 1, no: 1, active: 5, reason: "", article: "Art. 5" },
      round(7, 2),
    ];
    const metrics = episodeMetrics(state, events, { redTeam: ["c0"] });
    expect(metrics).toMatchObject({
      worstOffHonestWelfare: 200,
      worstOffHonestCitizen: "c1",
      treasuryIntegrityPermille: Math.floor((1000 * (1300 - 240)) / 1300),
      participationPermille: Math.floor((1000 * 5) / 10),
      legitimacyPermille: Math.floor((1000 * 2) / 3),
      rejectedActions: 1,
      exits: 0,
    });
    for (const value of Object.values(metrics)) if (typeof value === "number") expect(Number.isInteger(value)).toBe(true);
  });

  it("gives full integrity and legitimacy, and no participation, to an empty episode", () => {
    expect(episodeMetrics(world(0, [[0, "active"], [0, "active"]]), [], { redTeam: [] })).toMatchObject({ treasuryIntegrityPermille: 1000, legitimacyPermille: 1000, participationPermille: 0 });
  });
});

describe("compareEpisodeMetrics", () => {
  const metrics = (worst: number, integrity: number, participation: number, legitimacy: number): EpisodeMetrics => ({
    worstOffHonestWelfare: worst,
    worstOffHonestCitizen: "c1",
    treasuryIntegrityPermille: integrity,
    participationPermille: participation,
    legitimacyPermille: legitimacy,
    rejectedActions: 0,
    exits: 0,
    welfare: [],
  });

  it("ranks a protected floor above a richer episode with a starved citizen", () => {
    const starved = metrics(10, 1000, 1000, 1000);
    const protectedFloor = metrics(50, 400, 100, 100);
    expect([starved, protectedFloor].sort(compareEpisodeMetrics)).toEqual([protectedFloor, starved]);
  });

  it("breaks ties by integrity, then participation, then legitimacy", () => {
    const ordered = [metrics(5, 900, 1, 1), metrics(5, 800, 9, 9), metrics(5, 800, 8, 9), metrics(5, 800, 8, 2)];
    expect([...ordered].reverse().sort(compareEpisodeMetrics)).toEqual(ordered);
    expect(compareEpisodeMetrics(metrics(1, 2, 3, 4), metrics(1, 2, 3, 4))).toBe(0);
  });
});
