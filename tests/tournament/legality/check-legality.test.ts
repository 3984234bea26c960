import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { checkLegality } from "../../../src/tournament/legality/check-legality.js";
import type { Action } from "../../../src/tournament/world/actions.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";
import type { WorldState } from "../../../src/tournament/world/world-state.js";

const text010 = readFileSync("constitutions/constitution-0.1.0.yaml", "utf8");
const kernel010 = parseKernel(text010, "0.1.0");
const kernel020 = parseKernel(readFileSync("constitutions/constitution-0.2.0.yaml", "utf8"), "0.2.0");

/** A 4-citizen world under `kernel` after the on-turn citizens play `moves` (each builds its action from the actor). */
function worldAfter(moves: Array<(actor: string) => Action>, kernel = kernel010): TournamentWorld {
  const environment = new TournamentWorld(kernel, { numCitizens: 4, initialTreasury: 1000, seed: 1 });
  for (const move of moves) {
    const result = environment.step(move(environment.actorOnTurn as string));
    if (!result.legal) throw new Error(`setup move refused: ${result.reason}`);
  }
  return environment;
}

const onTurn = (environment: TournamentWorld) => environment.actorOnTurn as string;
const notOnTurn = (environment: TournamentWorld) => environment.citizens().find((citizen) => citizen !== environment.actorOnTurn) as string;
const pass = (actor: string): Action => ({ type: "Pass", actor });
const declare = (actor: string): Action => ({ type: "DeclareEmergency", actor, reason: "" });
const spend = (amount: number, recipient = "c0") => (actor: string): Action => ({ type: "ProposeSpend", actor, amount, recipient, memo: "" });

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
}

/** Each rule the gate decides: a world, the refused action, the rule and its article in 0.1.0. */
const CASES: Array<{ rule: string; article: string; world: () => TournamentWorld; action: (environment: TournamentWorld) => Action; reason: RegExp }> = [
  { rule: "citizen.active", article: "Art. 1", world: () => worldAfter([]), action: () => pass("c9"), reason: /c9 is not a citizen/ },
  { rule: "turn.order", article: "Art. 1", world: () => worldAfter([]), action: (environment) => pass(notOnTurn(environment)), reason: /turn, not/ },
  { rule: "spend.amount", article: "Art. 2", world: () => worldAfter([]), action: (environment) => spend(101)(onTurn(environment)), reason: /101 is more than 10% of the treasury \(1000\)/ },
  { rule: "spend.recipient", article: "Art. 2", world: () => worldAfter([]), action: (environment) => spend(5, "c7")(onTurn(environment)), reason: /c7 is not an active citizen/ },
  {
    rule: "spend.holdings",
    article: "Art. 8",
    // A fair share is 1000 / 4 = 250 and the cap 60% of it (150): a second open spend of 100 for c0 would bring it to 200.
    world: () => worldAfter([spend(100)], parseKernel(text010.replace("maxHoldingPercentOfFairShare: 1000", "maxHoldingPercentOfFairShare: 60"), "three-fifths")),
    action: (environment) => spend(100)(onTurn(environment)),
    reason: /c0 would hold 200 \(balance 0, open spends 100\), more than 60% of a fair share \(250\)/,
  },
  {
    rule: "proposal.limit",
    article: "Art. 3",
    // A kernel allowing one open proposal: everyone proposes in round 0, so round 1's first citizen has one open.
    world: () => worldAfter([spend(1), spend(1), spend(1), spend(1)], parseKernel(text010.replace("maxOpenProposalsPerCitizen: 2", "maxOpenProposalsPerCitizen: 1"), "one-open")),
    action: (environment) => spend(1)(onTurn(environment)),
    reason: /already has 1 open proposals \(at most 1\)/,
  },
  { rule: "amendment.scope", article: "Art. 4", world: () => worldAfter([]), action: (environment) => ({ type: "ProposeAmendment", actor: onTurn(environment), changes: { emergencyCooldownRounds: 0 } }), reason: /not amendable/ },
  { rule: "amendment.scope", article: "Art. 4", world: () => worldAfter([]), action: (environment) => ({ type: "ProposeAmendment", actor: onTurn(environment), changes: { quorumPercent: 101 } }), reason: /outside what the constitution allows/ },
  { rule: "vote.open", article: "Art. 5", world: () => worldAfter([]), action: (environment) => ({ type: "Vote", actor: onTurn(environment), proposalId: "p0", support: true }), reason: /p0 is not an open proposal/ },
  {
    rule: "vote.once",
    article: "Art. 5",
    // Round 0: one citizen proposes p0 and the other three vote on it; under seed 1, round 1's first citizen is one of those voters.
    world: () => worldAfter([spend(1), (actor) => ({ type: "Vote", actor, proposalId: "p0", support: true }), (actor) => ({ type: "Vote", actor, proposalId: "p0", support: true }), (actor) => ({ type: "Vote", actor, proposalId: "p0", support: true })]),
    action: (environment) => ({ type: "Vote", actor: onTurn(environment), proposalId: "p0", support: false }),
    reason: /has already voted on p0/,
  },
  { rule: "emergency.single", article: "Art. 6", world: () => worldAfter([declare]), action: (environment) => declare(onTurn(environment)), reason: /an emergency declared by c\d is in force/ },
  { rule: "emergency.end", article: "Art. 6", world: () => worldAfter([]), action: (environment) => ({ type: "EndEmergency", actor: onTurn(environment) }), reason: /no emergency is in force/ },
  { rule: "emergency.end", article: "Art. 6", world: () => worldAfter([declare]), action: (environment) => ({ type: "EndEmergency", actor: onTurn(environment) }), reason: /only c\d, who declared it, may end/ },
  {
    rule: "emergency.cooldown",
    article: "Art. 6",
    world: () => worldAfter([declare, pass, pass, pass, pass, pass, pass, pass, pass, pass, pass, pass], kernel020),
    action: (environment) => declare(onTurn(environment)),
    reason: /the last emergency ended 1 round\(s\) ago; 3 must pass/,
  },
  {
    rule: "exit.pending",
    article: "Art. 7",
    // One citizen declares and the other three queue exits; round 1's first citizen (seed 1) is one of them.
    world: () => worldAfter([declare, (actor) => ({ type: "Exit", actor }), (actor) => ({ type: "Exit", actor }), (actor) => ({ type: "Exit", actor })]),
    action: (environment) => ({ type: "Exit", actor: onTurn(environment) }),
    reason: /exit is already queued/,
  },
];

describe("checkLegality", () => {
  for (const entry of CASES) {
    it(`refuses by ${entry.rule}, citing ${entry.article}`, () => {
      const environment = entry.world();
      const action = entry.action(environment);
      const result = checkLegality(environment.state, action, environment.kernel);
      expect(result).toMatchObject({ legal: false, rule: entry.rule, article: entry.article });
      expect(result.reason).toMatch(entry.reason);
    });
  }

  it("cites whichever article the kernel puts a rule under, not a constant", () => {
    const moved = parseKernel(text010.replace("rules: [proposal.limit]", "rules: [proposal.limit, spend.amount]").replace("rules: [spend.amount, spend.recipient, tally.funds]", "rules: [spend.recipient, tally.funds]"), "moved");
    const environment = worldAfter([]);
    expect(checkLegality(environment.state, spend(500)(onTurn(environment)), moved)).toMatchObject({ legal: false, rule: "spend.amount", article: "Art. 3" });
  });

  it("allows the cooldown's redeclaration under 0.1.0 (cooldown 0) that 0.2.0 refuses", () => {
    const moves = [declare, pass, pass, pass, pass, pass, pass, pass, pass, pass, pass, pass];
    const open = worldAfter(moves, kernel010);
    expect(checkLegality(open.state, declare(onTurn(open)), kernel010).legal).toBe(true);
  });

  it("is pure: a deep-frozen state and action go through every case untouched", () => {
    for (const entry of CASES) {
      const environment = entry.world();
      const snapshot: WorldState = structuredClone(environment.state) as WorldState;
      const frozen = deepFreeze(structuredClone(snapshot));
      const action = deepFreeze(entry.action(environment));
      const first = checkLegality(frozen, action, environment.kernel);
      expect(checkLegality(frozen, action, environment.kernel)).toEqual(first);
      expect(frozen).toEqual(snapshot);
      // Legal actions too: every on-turn kind against the frozen state.
      const actor = onTurn(environment);
      for (const candidate of [pass(actor), declare(actor), spend(1)(actor), { type: "Exit", actor } as Action]) checkLegality(frozen, deepFreeze(candidate), environment.kernel);
      expect(frozen).toEqual(snapshot);
    }
  });
});
