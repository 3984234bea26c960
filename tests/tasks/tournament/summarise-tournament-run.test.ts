import { describe, expect, it } from "vitest";
import { summariseTournamentRun } from "../../../src/tasks/tournament/summarise-tournament-run.js";

const step = (scored: number, environment: Record<string, number>) => ({ step: 1, rewards: { c0: 0.5 }, rollouts: { scored, failed: 0, dropped: 0 }, environment });

describe("the tournament's run summary", () => {
  it("sums the step lines' submissions, refusals, invalid outputs and findings: the accepted share is over the run's submissions, not a mean of steps", () => {
    const lines = [
      step(4, { submitted: 10, rejected: 1, invalidOutputs: 0, episodesWithFindings: 0, rejectedShare: 0.1, findingRate: 0 }),
      step(4, { submitted: 30, rejected: 9, invalidOutputs: 2, episodesWithFindings: 1, rejectedShare: 0.3, findingRate: 0.25 }),
      // An evaluation line and another environment's step line are passed over.
      { step: 2, heldOutAccuracy: 0.5, n: 4, elapsedSeconds: 3 },
      step(4, { solveRate: 1 }),
    ];
    // 30 of 40 accepted: 0.75, where the steps' mean refused share would say 0.8 accepted.
    expect(summariseTournamentRun(lines)).toEqual({
      tournament: { steps: 2, episodes: 8, citizens: { submitted: 40, accepted: 30, rejected: 10, acceptedShare: 0.75, invalidOutputs: 2 }, episodesWithFindings: 1 },
    });
  });

  it("reports the opponent citizens apart when the steps have them, and a share of 0 when nothing was submitted", () => {
    const lines = [
      step(2, { submitted: 4, rejected: 0, invalidOutputs: 0, episodesWithFindings: 2, opponentSubmitted: 6, opponentRejected: 3, opponentInvalidOutputs: 1 }),
      step(2, { submitted: 4, rejected: 2, invalidOutputs: 1, episodesWithFindings: 0, opponentSubmitted: 2, opponentRejected: 1, opponentInvalidOutputs: 0 }),
    ];
    expect(summariseTournamentRun(lines).tournament).toEqual({
      steps: 2,
      episodes: 4,
      citizens: { submitted: 8, accepted: 6, rejected: 2, acceptedShare: 0.75, invalidOutputs: 1 },
      opponentCitizens: { submitted: 8, accepted: 4, rejected: 4, acceptedShare: 0.5, invalidOutputs: 1 },
      episodesWithFindings: 2,
    });
    expect(summariseTournamentRun([]).tournament).toEqual({ steps: 0, episodes: 0, citizens: { submitted: 0, accepted: 0, rejected: 0, acceptedShare: 0, invalidOutputs: 0 }, episodesWithFindings: 0 });
  });
});
