import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { UnknownActionError } from "../../../src/tournament/errors/index.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { checkLegality } from "../../../src/tournament/legality/check-legality.js";
import { eventLogHash } from "../../../src/tournament/replay/canonical-json.js";
import { canonicalJson } from "../../../src/tournament/replay/canonical-json.js";
import { parseAction } from "../../../src/tournament/world/actions.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "0.1.0");

// Each of these passed the gate (or threw a TypeError after a partial append) when step and checkLegality trusted their argument.
const cycle: Record<string, unknown> = { type: "Pass" };
cycle.actor = cycle;
/** A case: its name, the submission (for the citizen on turn), the reason it gets, and how the transcript keeps it (`null`: its JSON as it is). */
const malformed: [string, (actor: string) => unknown, RegExp, { notJson: { field: string; got: string }[] } | null][] = [
  ["a negative spend", (actor) => ({ type: "ProposeSpend", actor, amount: -50, recipient: actor }), /amount: got -50/, null],
  ["a fractional spend", (actor) => ({ type: "ProposeSpend", actor, amount: 0.5, recipient: actor }), /amount: got 0\.5/, null],
  ["a NaN spend", (actor) => ({ type: "ProposeSpend", actor, amount: Number.NaN, recipient: actor }), /amount: got NaN; expected a JSON value/, { notJson: [{ field: "amount", got: "NaN" }] }],
  ["a string spend", (actor) => ({ type: "ProposeSpend", actor, amount: "5", recipient: actor }), /amount: got "5"/, null],
  ["a BigInt spend", (actor) => ({ type: "ProposeSpend", actor, amount: 5n, recipient: actor }), /amount: got 5n; expected a JSON value/, { notJson: [{ field: "amount", got: "5n" }] }],
  ["an unknown type", (actor) => ({ type: "Seize", actor }), /type: got "Seize"; expected one of ProposeSpend/, null],
  ["null", () => null, /type: got nothing/, null],
  ["a cycle", () => cycle, /actor: got a cycle; expected a JSON value/, { notJson: [{ field: "actor", got: "a cycle" }] }],
  ["an extra key", (actor) => ({ type: "Pass", actor, treasury: 0 }), /treasury: got 0; expected no such key in a Pass action/, null],
  ["a __proto__ key in an amendment's changes", (actor) => JSON.parse(`{"type":"ProposeAmendment","actor":"${actor}","changes":{"__proto__":{"quorumPercent":1}}}`), /changes\.__proto__: .*cannot be kept/, null],
];

describe("the gate reads every action with the closed vocabulary's schema first", () => {
  for (const [name, make, reason, kept] of malformed) {
    it(`refuses ${name}: checkLegality returns the reason, step logs one rejected event and changes nothing else`, () => {
      const environment = new TournamentWorld(kernel, { seed: 1 });
      const actor = environment.actorOnTurn as string;
      const action = make(actor);
      expect(checkLegality(environment.state, action, kernel)).toMatchObject({ legal: false, article: null, rule: null, reason: expect.stringMatching(reason) });
      const before = structuredClone(environment.state);
      const result = environment.step(action);
      expect(result).toMatchObject({ legal: false, article: null, reason: expect.stringMatching(reason) });
      expect(isDeepStrictEqual(environment.state, before)).toBe(true);
      expect(environment.actorOnTurn).toBe(actor);
      expect(environment.actions).toEqual([]);
      // Kept in the transcript as what it was, so a replay refuses it again.
      expect(environment.submissions).toHaveLength(1);
      expect(environment.submissions).toEqual([kept ?? { malformed: JSON.parse(JSON.stringify(action)) }]);
      expect(environment.events).toEqual([{ seq: 0, round: 0, type: "rejected", action: null, reason: result.reason, article: null }]);
      // The log stays hashable: nothing of the malformed value is in it.
      expect(eventLogHash(environment.events)).toMatch(/^[0-9a-f]{64}$/);
    });
  }

  it("names a malformed submission's bad fields in path order, whatever order its keys were written in: the same reason, canonical log and transcript", () => {
    const actor = new TournamentWorld(kernel, { seed: 1 }).actorOnTurn as string;
    const symbol = Symbol("memo");
    // Each case in two key orders, and the fields its refusal must name, in this order.
    const cases: [unknown, unknown, string[]][] = [
      // The case: two bad values in `changes`, one under a key every object inherits.
      [
        JSON.parse(`{"type":"ProposeAmendment","actor":"${actor}","changes":{"valueOf":null,"maxSpendPercentOfTreasury":null}}`),
        JSON.parse(`{"changes":{"maxSpendPercentOfTreasury":null,"valueOf":null},"actor":"${actor}","type":"ProposeAmendment"}`),
        ["changes.maxSpendPercentOfTreasury", "changes.valueOf"],
      ],
      // Unknown keys (one of them `constructor`, holding an object) around a bad field; `aa` sorts before `amount`, which the schema checks first.
      [
        JSON.parse(`{"zz":1,"type":"ProposeSpend","constructor":{"b":2,"a":1},"actor":"${actor}","amount":-1,"aa":true,"recipient":"c1"}`),
        JSON.parse(`{"recipient":"c1","aa":true,"amount":-1,"actor":"${actor}","constructor":{"a":1,"b":2},"type":"ProposeSpend","zz":1}`),
        ["aa", "amount", "constructor", "zz"],
      ],
      // Parts JSON cannot hold.
      [{ type: "ProposeSpend", actor, memo: symbol, amount: Number.NaN, recipient: "c1" }, { recipient: "c1", amount: Number.NaN, memo: symbol, actor, type: "ProposeSpend" }, ["amount", "memo"]],
    ];
    for (const [first, second, fields] of cases) {
      const [a, b] = [first, second].map((submission) => {
        const environment = new TournamentWorld(kernel, { seed: 1 });
        const result = environment.step(submission);
        expect(result.legal).toBe(false);
        return { reason: result.reason as string, log: canonicalJson(environment.events), transcript: JSON.stringify(environment.submissions) };
      }) as [{ reason: string; log: string; transcript: string }, { reason: string; log: string; transcript: string }];
      expect(b.reason).toBe(a.reason);
      expect(b.log).toBe(a.log);
      expect(b.transcript).toBe(a.transcript);
      const named = fields.map((field) => a.reason.indexOf(` ${field}: got`));
      expect(named.every((at) => at >= 0), a.reason).toBe(true);
      expect([...named].sort((x, y) => x - y), a.reason).toEqual(named);
    }
  });

  it("keeps frozen copies: changing the caller's action after step rewrites nothing", () => {
    const environment = new TournamentWorld(kernel, { seed: 1 });
    const actor = environment.actorOnTurn as string;
    const outOfTurn = environment.citizens().find((citizen) => citizen !== actor) as string;
    const refused: { type: "Pass"; actor: string } = { type: "Pass", actor: outOfTurn };
    environment.step(refused);
    const amendment = { type: "ProposeAmendment" as const, actor, changes: { quorumPercent: 40 } as Record<string, number> };
    environment.step(amendment);
    const logged = JSON.stringify(environment.events);
    const transcript = JSON.stringify(environment.actions);
    refused.actor = "c0";
    amendment.changes.quorumPercent = 1;
    expect(JSON.stringify(environment.events)).toBe(logged);
    expect(JSON.stringify(environment.actions)).toBe(transcript);
    expect(Object.isFrozen(environment.actions[0])).toBe(true);
    expect(Object.isFrozen(environment.events[0])).toBe(true);
    expect(() => {
      (environment.events[1] as { round: number }).round = 9;
    }).toThrow(TypeError);
  });

  it("parseAction refuses a key it would drop, naming it, instead of parsing the amendment without it", () => {
    const text = '{"type":"ProposeAmendment","actor":"c0","changes":{"quorumPercent":40,"__proto__":{"x":1}}}';
    expect(() => parseAction(JSON.parse(text), "line 1")).toThrow(UnknownActionError);
    expect(() => parseAction(JSON.parse(text), "line 1")).toThrow(/^line 1\.changes\.__proto__: got \{"x":1\}; expected a parameter name/);
    expect(parseAction({ type: "ProposeSpend", actor: "c1", amount: 5, recipient: "c2" }, "line 2")).toEqual({ type: "ProposeSpend", actor: "c1", amount: 5, recipient: "c2", memo: "" });
  });
});
