import { describe, expect, it } from "vitest";
import { RoleBaselineAdvantage } from "../../../src/core/credit/role-baseline-advantage.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { creditSample } from "../../helpers/credit-sample.js";
import { expectAllClose } from "../../helpers/expect-close.js";

const solver = (reward: number) => creditSample("g", "solver", reward);
const proposer = (reward: number) => creditSample("g", "proposer", reward);

describe("RoleBaselineAdvantage", () => {
  it("is named role-baseline and has no baseline before the first batch", () => {
    const assigner = new RoleBaselineAdvantage();
    expect(assigner.name).toBe("role-baseline");
    expect(assigner.baseline("solver")).toBeUndefined();
    expect(assigner.snapshot()).toEqual({});
  });

  it("uses the batch mean as the baseline of a role's first batch", () => {
    const assigner = new RoleBaselineAdvantage();
    // mean of [1, 0, 0, 1] = 0.5
    expect(assigner.assign([1, 0, 0, 1].map(solver))).toEqual([0.5, -0.5, -0.5, 0.5]);
    expect(assigner.baseline("solver")).toBe(0.5);
  });

  it("uses the baseline from before the batch, then updates b ← decay·b + (1 − decay)·mean", () => {
    const assigner = new RoleBaselineAdvantage(); // decay 0.95
    assigner.assign([1, 0, 0, 1].map(solver)); // b = 0.5
    // Batch 2: rewards [1, 1] mean 1, scored against b = 0.5.
    expect(assigner.assign([1, 1].map(solver))).toEqual([0.5, 0.5]);
    const b2 = 0.95 * 0.5 + 0.05 * 1; // 0.525
    expect(assigner.baseline("solver")).toBeCloseTo(0.525, 12);
    // Batch 3: reward [0] against b = 0.525.
    expectAllClose(assigner.assign([solver(0)]), [-b2]);
    expect(assigner.baseline("solver")).toBeCloseTo(0.95 * 0.525 + 0.05 * 0, 12);
  });

  it("applies a custom decay", () => {
    const assigner = new RoleBaselineAdvantage({ decay: 0.5 });
    assigner.assign([2, 4].map(solver)); // b = 3
    expect(assigner.assign([0, 2].map(solver))).toEqual([-3, -1]);
    expect(assigner.baseline("solver")).toBe(0.5 * 3 + 0.5 * 1); // 2
  });

  it("with decay 0 the baseline is the previous batch's mean", () => {
    const assigner = new RoleBaselineAdvantage({ decay: 0 });
    assigner.assign([2, 4].map(solver)); // b = 3
    expect(assigner.assign([10].map(solver))).toEqual([7]);
    expect(assigner.baseline("solver")).toBe(10);
  });

  it("keeps one baseline per role, independent of groups", () => {
    const assigner = new RoleBaselineAdvantage({ decay: 0.5 });
    const batch = [
      creditSample("q1", "solver", 1),
      creditSample("q1", "proposer", 0.2),
      creditSample("q2", "solver", 0),
      creditSample("q2", "proposer", 0.6),
    ];
    // solver mean 0.5, proposer mean 0.4
    expectAllClose(assigner.assign(batch), [0.5, -0.2, -0.5, 0.2]);
    expect(assigner.baseline("solver")).toBe(0.5);
    expect(assigner.baseline("proposer")).toBeCloseTo(0.4, 12);
    // Only the proposer appears: the solver's baseline is untouched.
    expectAllClose(assigner.assign([proposer(1)]), [1 - 0.4]);
    expect(assigner.baseline("solver")).toBe(0.5);
    expect(assigner.baseline("proposer")).toBeCloseTo(0.5 * 0.4 + 0.5 * 1, 12);
    // A new role starts at its own batch mean.
    expect(assigner.assign([creditSample("q3", "critic", 3), creditSample("q3", "critic", 5)])).toEqual([-1, 1]);
  });

  it("does not depend on sample order within a batch", () => {
    const forward = new RoleBaselineAdvantage({ decay: 0.5 });
    const backward = new RoleBaselineAdvantage({ decay: 0.5 });
    forward.assign([solver(1)]);
    backward.assign([solver(1)]);
    const batch = [solver(0), solver(2), solver(5)];
    // baseline 1 for both, whatever the order
    expect(forward.assign(batch)).toEqual([-1, 1, 4]);
    expect(backward.assign([...batch].reverse())).toEqual([4, 1, -1]);
    expect(forward.baseline("solver")).toBe(backward.baseline("solver"));
  });

  it("returns an empty array for no samples and leaves baselines alone", () => {
    const assigner = new RoleBaselineAdvantage();
    expect(assigner.assign([])).toEqual([]);
    expect(assigner.snapshot()).toEqual({});
  });

  it("snapshots to JSON and restores into a fresh assigner that continues identically", () => {
    const original = new RoleBaselineAdvantage({ decay: 0.5 });
    original.assign([solver(1), solver(3), proposer(0.5)]); // solver 2, proposer 0.5
    const snapshot = JSON.parse(JSON.stringify(original.snapshot())) as unknown;
    expect(snapshot).toEqual({ solver: 2, proposer: 0.5 });

    const restored = new RoleBaselineAdvantage({ decay: 0.5 });
    restored.restore(snapshot as Record<string, number>);
    const next = [solver(4), proposer(0)];
    expect(restored.assign(next)).toEqual([2, -0.5]);
    expect(original.assign(next)).toEqual([2, -0.5]);
    expect(restored.snapshot()).toEqual(original.snapshot());
    expect(restored.snapshot()).toEqual({ solver: 0.5 * 2 + 0.5 * 4, proposer: 0.5 * 0.5 + 0.5 * 0 });
  });

  it("restore replaces every baseline, forgetting roles absent from the snapshot", () => {
    const assigner = new RoleBaselineAdvantage();
    assigner.assign([proposer(1)]);
    assigner.restore({ solver: 0.25 });
    expect(assigner.baseline("proposer")).toBeUndefined();
    expect(assigner.baseline("solver")).toBe(0.25);
  });

  it("restore rejects a state that is not a record of numbers", () => {
    const assigner = new RoleBaselineAdvantage();
    expect(() => assigner.restore({ solver: "high" })).toThrow();
    expect(() => assigner.restore([1, 2])).toThrow();
    expect(() => assigner.restore(null)).toThrow();
  });

  it.each([1, 1.5, -0.1, Number.NaN])("rejects decay %s with InvalidInputError", (decay) => {
    expect(() => new RoleBaselineAdvantage({ decay })).toThrow(InvalidInputError);
  });
});
