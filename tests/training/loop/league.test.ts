import { describe, expect, it } from "vitest";
import { League, type LeagueOpponent } from "../../../src/training/loop/league.js";
import { LeagueConfigurationSchema } from "../../../src/training/loop/league-configuration.js";

const configuration = (input: object) => LeagueConfigurationSchema.parse(input);

/** |observed − p| ≤ 3·sqrt(p(1−p)/n): a 3-sigma binomial bound. */
function expectWithinBinomialBound(hits: number, n: number, p: number) {
  expect(Math.abs(hits / n - p)).toBeLessThanOrEqual(3 * Math.sqrt((p * (1 - p)) / n));
}

/** A run of `steps` steps of `rollouts` rollouts each, admitting each step's version after its rollouts (as train does after sync). */
function play(league: League, steps: readonly number[], rollouts: number): LeagueOpponent[] {
  const draws: LeagueOpponent[] = [];
  for (const step of steps) {
    for (let index = 0; index < rollouts; index++) draws.push(league.draw(`ep${(step - 1) * rollouts + index}`));
    league.admit(step);
  }
  return draws;
}

describe("League", () => {
  it("keeps version 0 and the most recent `size` versions, oldest leaving first", () => {
    const league = new League(configuration({ size: 3 }), 0);
    expect(league.snapshots).toEqual([0]);
    expect(league.admit(1)).toEqual([]);
    expect(league.admit(2)).toEqual([]);
    expect(league.admit(3)).toEqual([0]);
    expect(league.admit(4)).toEqual([1]);
    expect(league.snapshots).toEqual([2, 3, 4]);
    const all = new League(configuration({ size: "all" }), 0);
    for (let version = 1; version <= 10; version++) expect(all.admit(version)).toEqual([]);
    expect(all.snapshots).toHaveLength(11);
  });

  it.each([0.5, 0.2, 0.8])("draws the current policy at share %s and each of 4 snapshots at an equal share of the rest, within a binomial bound", (currentShare) => {
    const league = new League(configuration({ size: 4, currentShare }), 7);
    for (let version = 1; version <= 4; version++) league.admit(version);
    const n = 20_000;
    const counts = new Map<LeagueOpponent, number>();
    for (let index = 0; index < n; index++) {
      const opponent = league.draw(`ep${index}`);
      counts.set(opponent, (counts.get(opponent) ?? 0) + 1);
    }
    expectWithinBinomialBound(counts.get("current") ?? 0, n, currentShare);
    for (const version of [1, 2, 3, 4]) expectWithinBinomialBound(counts.get(version) ?? 0, n, (1 - currentShare) / 4);
    expect(counts.has(0)).toBe(false);
  });

  it("draws only the current policy at share 1 and never at share 0", () => {
    const always = new League(configuration({ currentShare: 1 }), 1);
    const never = new League(configuration({ currentShare: 0 }), 1);
    const ids = Array.from({ length: 500 }, (_, index) => `ep${index}`);
    expect(new Set(ids.map((id) => always.draw(id)))).toEqual(new Set(["current"]));
    expect(ids.some((id) => never.draw(id) === "current")).toBe(false);
  });

  it("resumed from a snapshot taken mid-run, draws what the uninterrupted run drew", () => {
    const steps = Array.from({ length: 12 }, (_, index) => index + 1);
    const uninterrupted = play(new League(configuration({ size: 3, currentShare: 0.3 }), 42), steps, 16);
    const first = new League(configuration({ size: 3, currentShare: 0.3 }), 42);
    const before = play(first, steps.slice(0, 5), 16);
    const resumed = new League(configuration({ size: 3, currentShare: 0.3 }), 42);
    resumed.restore(JSON.parse(JSON.stringify(first.snapshot())));
    expect([...before, ...play(resumed, steps.slice(5), 16)]).toEqual(uninterrupted);
    expect(new Set(uninterrupted).size).toBeGreaterThan(3);
  });

  it("draws differently under another seed", () => {
    const draws = (seed: number) => play(new League(configuration({}), seed), [1, 2, 3, 4, 5], 16);
    expect(draws(1)).not.toEqual(draws(2));
  });
});
