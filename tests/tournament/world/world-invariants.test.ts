import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { PATCHABLE_PARAMS } from "../../../src/tournament/kernel/kernel-schema.js";
import type { Action } from "../../../src/tournament/world/actions.js";
import type { TournamentEvent } from "../../../src/tournament/world/events.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const KERNELS = [
  parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "0.1.0"),
  parseKernel(readFileSync("constitutions/constitution-0.2.0.yaml", "utf8"), "0.2.0"),
  // Short windows and a one-round emergency cap make tallies, lapses and queued exits frequent.
  parseKernel(
    readFileSync("constitutions/constitution-0.1.0.yaml", "utf8")
      .replace("votingWindowRounds: 2", "votingWindowRounds: 1")
      .replace("emergencyMaxRounds: 3", "emergencyMaxRounds: 1")
      .replace("quorumPercent: 50", "quorumPercent: 20")
      .replace("maxSpendPercentOfTreasury: 10", "maxSpendPercentOfTreasury: 60"),
    "stress",
  ),
];

/**
 * A move: who acts (`onTurn` most of the time, so rounds advance; otherwise a
 * citizen id that may be out of turn, exited or not a citizen at all) and
 * what, with fields drawn wide enough to be legal or not.
 */
const moveArbitrary = fc.record({
  onTurn: fc.nat(9).map((value) => value < 9),
  citizen: fc.nat(9),
  kind: fc.constantFrom("ProposeSpend", "ProposeAmendment", "Vote", "Vote", "DeclareEmergency", "EndEmergency", "Exit", "Pass", "Pass"),
  amount: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 5000 })),
  recipient: fc.nat(9),
  proposal: fc.nat(12),
  support: fc.boolean(),
  parameter: fc.constantFrom(...PATCHABLE_PARAMS, "notAParameter"),
  value: fc.oneof(fc.integer({ min: -5, max: 120 }), fc.boolean()),
});
type Move = typeof moveArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** A cheap assertion for the hot loop (vitest's expect costs more than the step it checks). */
function invariant(holds: boolean, message: () => string): void {
  if (!holds) throw new Error(message());
}

function actionFor(move: Move, environment: TournamentWorld): Action {
  const actor = move.onTurn && environment.actorOnTurn !== null ? environment.actorOnTurn : `c${move.citizen}`;
  switch (move.kind) {
    case "ProposeSpend":
      return { type: "ProposeSpend", actor, amount: move.amount, recipient: `c${move.recipient}`, memo: "" };
    case "ProposeAmendment":
      return { type: "ProposeAmendment", actor, changes: { [move.parameter]: move.value } };
    case "Vote":
      return { type: "Vote", actor, proposalId: `p${move.proposal}`, support: move.support };
    case "DeclareEmergency":
      return { type: "DeclareEmergency", actor, reason: "" };
    default:
      return { type: move.kind as "EndEmergency" | "Exit" | "Pass", actor };
  }
}

/**
 * Emergency rule read from the events alone: each emergency's rounds in force,
 * checked against the cap in force (amendments followed), and never two at once.
 */
function checkEmergencies(events: readonly TournamentEvent[], initialCap: number): void {
  let cap = initialCap;
  let declaredIn: number | null = null;
  for (const event of events) {
    if (event.type === "amendment_applied" && typeof event.changes.emergencyMaxRounds === "number") cap = event.changes.emergencyMaxRounds;
    if (event.type === "emergency_declared") {
      invariant(declaredIn === null, () => `event ${event.seq}: an emergency declared while the one from round ${declaredIn} is in force`);
      declaredIn = event.round;
    } else if (event.type === "emergency_ended" || event.type === "emergency_lapsed") {
      const start = declaredIn;
      invariant(start !== null && event.lastedRounds === event.round - start + 1 && event.lastedRounds <= cap, () => `event ${event.seq}: an emergency from round ${start} ended after ${event.lastedRounds} rounds (cap ${cap})`);
      declaredIn = null;
    } else if (event.type === "round_ended" && declaredIn !== null) {
      // Still in force after its round closed: it has lasted fewer rounds than the cap.
      const start = declaredIn;
      invariant(event.round - start + 1 < cap, () => `the emergency from round ${start} was still in force after round ${event.round} (cap ${cap})`);
    }
  }
}

const RUNS = 2000;
const MAX_MOVES = 120;

describe("TournamentWorld invariants over seeded random action sequences", () => {
  it(`hold for ${RUNS} sequences of ${MAX_MOVES / 2}–${MAX_MOVES} moves each, legal and illegal mixed (~100 000 actions; a sequence stops early once every citizen has left)`, () => {
    let actions = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.record({
          kernel: fc.nat(KERNELS.length - 1),
          numCitizens: fc.integer({ min: 2, max: 8 }),
          initialTreasury: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 10_000 })),
          factions: fc.integer({ min: 1, max: 3 }),
          seed: fc.nat(2 ** 31 - 1),
        }),
        fc.array(moveArbitrary, { minLength: MAX_MOVES / 2, maxLength: MAX_MOVES, size: "max" }),
        (world, moves) => {
          const kernel = KERNELS[world.kernel] as (typeof KERNELS)[number];
          const environment = new TournamentWorld(kernel, { numCitizens: world.numCitizens, initialTreasury: world.initialTreasury, factions: world.factions, seed: world.seed });
          for (const move of moves) {
            if (environment.actorOnTurn === null) break;
            const action = actionFor(move, environment);
            const before = structuredClone(environment.state);
            const actorBefore = environment.actorOnTurn;
            const eventsBefore = environment.events.length;
            const result = environment.step(action);
            actions += 1;
            if (!result.legal) {
              refused += 1;
              // A refusal changes nothing: same state, same citizen on turn, one `rejected` event naming an article.
              const [event, ...more] = result.events;
              invariant(isDeepStrictEqual(environment.state, before), () => `a refused ${action.type} changed the state`);
              invariant(environment.actorOnTurn === actorBefore, () => `a refused ${action.type} moved the turn from ${actorBefore}`);
              invariant(environment.events.length === eventsBefore + 1 && more.length === 0 && event?.type === "rejected" && event.article !== null && event.article.length > 0, () => `a refused ${action.type} logged ${JSON.stringify(result.events)}`);
            }
            const state = environment.state;
            // Funds are conserved and whole: treasury + Σ balances is the starting treasury.
            const funds = state.citizens.reduce((sum, citizen) => sum + citizen.balance, state.treasury);
            invariant(funds === world.initialTreasury, () => `after ${action.type}, treasury + balances = ${funds}, not ${world.initialTreasury}`);
            invariant(Number.isSafeInteger(state.treasury) && state.treasury >= 0, () => `treasury ${state.treasury} after ${action.type}`);
            invariant(state.citizens.every((citizen) => Number.isSafeInteger(citizen.balance) && citizen.balance >= 0), () => `a balance went negative or fractional after ${action.type}`);
            // At most one ballot per citizen per proposal.
            for (const proposal of state.proposals) invariant(new Set(proposal.ballots.map((ballot) => ballot.citizen)).size === proposal.ballots.length, () => `two ballots from one citizen on ${proposal.id}`);
          }
          checkEmergencies(environment.events, kernel.params.emergencyMaxRounds);
          // The log's own record of ballots agrees: one vote_cast per (citizen, proposal).
          const votes = environment.events.filter((event) => event.type === "vote_cast").map((event) => `${event.actor}/${event.proposalId}`);
          invariant(new Set(votes).size === votes.length, () => "two vote_cast events for one (citizen, proposal)");
        },
      ),
      { numRuns: RUNS, seed: 20261124 },
    );
    // The sequences mix legal and illegal actions in earnest.
    expect(refused).toBeGreaterThan(actions / 10);
    expect(actions - refused).toBeGreaterThan(actions / 10);
    console.log(`environment invariants: ${RUNS} sequences, ${actions} actions (${refused} refused)`);
  });
});
