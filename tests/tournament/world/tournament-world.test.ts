import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import type { Action } from "../../../src/tournament/world/actions.js";
import type { TournamentEvent } from "../../../src/tournament/world/events.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const text010 = readFileSync("constitutions/constitution-0.1.0.yaml", "utf8");
const kernel010 = parseKernel(text010, "0.1.0");

/** Plays one action per turn: `choose` gets the citizen on turn and the environment. */
function play(environment: TournamentWorld, turns: number, choose: (actor: string, environment: TournamentWorld) => Action): void {
  for (let turn = 0; turn < turns; turn++) {
    const actor = environment.actorOnTurn as string;
    const result = environment.step(choose(actor, environment));
    if (!result.legal) throw new Error(`refused: ${result.reason}`);
  }
}

const ofType = <Type extends TournamentEvent["type"]>(environment: TournamentWorld, type: Type) => environment.events.filter((event): event is Extract<TournamentEvent, { type: Type }> => event.type === type);

describe("TournamentWorld: the rules the round resolution applies, citing the kernel's articles", () => {
  it("draws each round's order from the seed alone, and ends each round with the next order", () => {
    const first = new TournamentWorld(kernel010, { numCitizens: 5, seed: 9 });
    const second = new TournamentWorld(kernel010, { numCitizens: 5, seed: 9 });
    play(first, 10, (actor) => ({ type: "Pass", actor }));
    play(second, 10, (actor) => ({ type: "Pass", actor }));
    expect(first.events).toEqual(second.events);
    expect(ofType(first, "round_ended").map((event) => [...event.nextTurnOrder].sort())).toEqual([["c0", "c1", "c2", "c3", "c4"], ["c0", "c1", "c2", "c3", "c4"]]);
  });

  it("passes a spend with quorum and approval and pays it at the window's close (Art. 5), conserving funds", () => {
    const environment = new TournamentWorld(kernel010, { numCitizens: 4, seed: 2 });
    // Round 0: the first citizen proposes 100 for c3, the others vote yes; round 1: the proposer votes, the rest pass.
    play(environment, 8, (actor, world) => {
      const proposal = world.state.proposals[0];
      if (proposal === undefined) return { type: "ProposeSpend", actor, amount: 100, recipient: "c3", memo: "" };
      return proposal.ballots.some((ballot) => ballot.citizen === actor) ? { type: "Pass", actor } : { type: "Vote", actor, proposalId: "p0", support: true };
    });
    expect(ofType(environment, "proposal_decided")).toEqual([expect.objectContaining({ proposalId: "p0", outcome: "passed", yes: 4, no: 0, active: 4, article: "Art. 5", round: 1 })]);
    expect(ofType(environment, "spend_paid")).toEqual([expect.objectContaining({ recipient: "c3", amount: 100 })]);
    expect(environment.state.treasury).toBe(900);
  });

  it("fails a proposal without quorum (Art. 5) and one the treasury cannot pay (Art. 2's tally.funds)", () => {
    const quorum = new TournamentWorld(kernel010, { numCitizens: 4, seed: 2 });
    play(quorum, 8, (actor, world) => (world.state.proposals.length === 0 ? { type: "ProposeSpend", actor, amount: 10, recipient: "c0", memo: "" } : { type: "Pass", actor }));
    expect(ofType(quorum, "proposal_decided")[0]).toMatchObject({ outcome: "failed", article: "Art. 5", reason: expect.stringContaining("quorum is 50%") });

    // A 100% cap lets two spends of 60 pass the gate, and a 3-round window lets everyone vote on both; only the first tallied can be paid.
    const generous = parseKernel(text010.replace("maxSpendPercentOfTreasury: 10", "maxSpendPercentOfTreasury: 100").replace("votingWindowRounds: 2", "votingWindowRounds: 3"), "generous");
    const funds = new TournamentWorld(generous, { numCitizens: 3, initialTreasury: 100, seed: 4 });
    play(funds, 9, (actor, world) => {
      const open = world.state.proposals.filter((proposal) => proposal.status === "open");
      const unvoted = open.find((proposal) => !proposal.ballots.some((ballot) => ballot.citizen === actor));
      if (world.state.proposals.length < 2 && world.turn === 0) return { type: "ProposeSpend", actor, amount: 60, recipient: actor === "c0" ? "c1" : "c0", memo: "" };
      return unvoted === undefined ? { type: "Pass", actor } : { type: "Vote", actor, proposalId: unvoted.id, support: true };
    });
    const decided = ofType(funds, "proposal_decided");
    expect(decided.map((event) => [event.outcome, event.article])).toEqual([
      ["passed", "Art. 5"],
      ["failed", "Art. 2"],
    ]);
    expect(funds.state.treasury).toBe(40);
  });

  it("queues exits during an emergency (Art. 7), lapses it after emergencyMaxRounds (Art. 6), then pays floor(treasury / active) with the remainder left in", () => {
    const environment = new TournamentWorld(kernel010, { numCitizens: 3, initialTreasury: 100, seed: 1 });
    let declarer: string | null = null;
    play(environment, 9, (actor, world) => {
      if (declarer === null) {
        declarer = actor;
        return { type: "DeclareEmergency", actor, reason: "" };
      }
      const me = world.state.citizens.find((citizen) => citizen.id === actor);
      return actor !== declarer && me?.exitQueuedRound === null ? { type: "Exit", actor } : { type: "Pass", actor };
    });
    expect(ofType(environment, "exit_queued").map((event) => [event.round, event.article])).toEqual([
      [0, "Art. 7"],
      [0, "Art. 7"],
    ]);
    expect(ofType(environment, "emergency_lapsed")).toEqual([expect.objectContaining({ round: 2, lastedRounds: 3, article: "Art. 6" })]);
    // At the end of round 2, with 3 active: 100 / 3 = 33, then 67 / 2 = 33; 34 stays in the treasury.
    expect(ofType(environment, "citizen_exited").map((event) => [event.share, event.queuedRounds, event.article])).toEqual([
      [33, 2, "Art. 7"],
      [33, 2, "Art. 7"],
    ]);
    expect(environment.state.treasury).toBe(34);
  });
});
