import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { UnknownActionError } from "../../../src/tournament/errors/index.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { checkLegality } from "../../../src/tournament/legality/check-legality.js";
import { eventLogHash } from "../../../src/tournament/replay/canonical-json.js";
import { parseAction } from "../../../src/tournament/world/actions.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "0.1.0");

// Each of these passed the gate (or threw a TypeError after a partial append) when step and checkLegality trusted their argument.
const cycle: Record<string, unknown> = { type: "Pass" };
cycle.actor = cycle;
const malformed: [string, (actor: string) => unknown, RegExp][] = [
  ["a negative spend", (actor) => ({ type: "ProposeSpend", actor, amount: -50, recipient: actor }), /amount: got -50/],
  ["a fractional spend", (actor) => ({ type: "ProposeSpend", actor, amount: 0.5, recipient: actor }), /amount: got 0\.5/],
  ["a NaN spend", (actor) => ({ type: "ProposeSpend", actor, amount: Number.NaN, recipient: actor }), /amount: got NaN/],
  ["a string spend", (actor) => ({ type: "ProposeSpend", actor, amount: "5", recipient: actor }), /amount: got "5"/],
  ["a BigInt spend", (actor) => ({ type: "ProposeSpend", actor, amount: 5n, recipient: actor }), /amount: got 5/],
  ["an unknown type", (actor) => ({ type: "Seize", actor }), /type: got "Seize"; expected one of ProposeSpend/],
  ["null", () => null, /type: got nothing/],
  ["a cycle", () => cycle, /actor: got \[object Object\]/],
  ["an extra key", (actor) => ({ type: "Pass", actor, treasury: 0 }), /treasury: .*no such key in a Pass action/],
  ["a __proto__ key in an amendment's changes", (actor) => JSON.parse(`{"type":"ProposeAmendment","actor":"${actor}","changes":{"__proto__":{"quorumPercent":1}}}`), /changes\.__proto__: .*cannot be kept/],
];

describe("the gate reads every action with the closed vocabulary's schema first", () => {
  for (const [name, make, reason] of malformed) {
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
      expect(environment.events).toEqual([{ seq: 0, round: 0, type: "rejected", action: null, reason: result.reason, article: null }]);
      // The log stays hashable: nothing of the malformed value is in it.
      expect(eventLogHash(environment.events)).toMatch(/^[0-9a-f]{64}$/);
    });
  }

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
