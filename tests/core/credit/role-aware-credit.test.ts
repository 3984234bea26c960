import { describe, expect, it } from "vitest";
import type { CreditAssigner, CreditSample } from "../../../src/core/credit/credit-assigner.js";
import { GrpoAdvantage } from "../../../src/core/credit/grpo-advantage.js";
import { RlooAdvantage } from "../../../src/core/credit/rloo-advantage.js";
import { RoleAwareCredit } from "../../../src/core/credit/role-aware-credit.js";
import { RoleBaselineAdvantage } from "../../../src/core/credit/role-baseline-advantage.js";
import type { JsonValue } from "../../../src/core/json.js";
import { creditSample } from "../../helpers/credit-sample.js";
import { expectAllClose } from "../../helpers/expect-close.js";

/** Records the batches it is given and returns 100 + the position of each sample in its batch. */
class RecordingAssigner implements CreditAssigner {
  readonly batches: CreditSample[][] = [];
  constructor(readonly name: string) {}
  assign(samples: readonly CreditSample[]): number[] {
    this.batches.push([...samples]);
    return samples.map((_sample, index) => 100 + index);
  }
}

describe("RoleAwareCredit", () => {
  it("is named after its two assigners", () => {
    expect(new RoleAwareCredit().name).toBe("role-aware(grpo|role-baseline)");
    expect(new RoleAwareCredit({ grouped: new RlooAdvantage(), singleton: new GrpoAdvantage() }).name).toBe(
      "role-aware(rloo|grpo)",
    );
  });

  it("by default scores groups of ≥ 2 with GRPO and singletons with the role's baseline", () => {
    const samples = [
      creditSample("q1", "solver", 1),
      creditSample("p1", "proposer", 0.8), // alone in its group
      creditSample("q1", "solver", 0),
      creditSample("q1", "solver", 0),
      creditSample("p2", "proposer", 0.2), // alone in its group
      creditSample("q1", "solver", 1),
    ];
    // q1/solver [1, 0, 0, 1]: GRPO ±0.5/(√(1/3) + 1e-4). Proposers: first batch, baseline = mean 0.5.
    const scale = Math.sqrt(1 / 3) + 1e-4;
    const credit = new RoleAwareCredit();
    expectAllClose(credit.assign(samples), [0.5 / scale, 0.3, -0.5 / scale, -0.5 / scale, -0.3, 0.5 / scale]);
    expect(credit.snapshot()).toEqual({ grouped: null, singleton: { proposer: 0.5 } });
  });

  it("routes samples by group size and keeps each subset in sample order", () => {
    const grouped = new RecordingAssigner("g");
    const singleton = new RecordingAssigner("s");
    const samples = [
      creditSample("a", "solver", 1),
      creditSample("b", "proposer", 2),
      creditSample("c", "solver", 3),
      creditSample("a", "solver", 4),
      creditSample("a", "proposer", 5), // different role: its own group of one
      creditSample("c", "solver", 6),
    ];
    const advantages = new RoleAwareCredit({ grouped, singleton }).assign(samples);
    expect(grouped.batches).toEqual([[samples[0], samples[2], samples[3], samples[5]]]);
    expect(singleton.batches).toEqual([[samples[1], samples[4]]]);
    expect(advantages).toEqual([100, 100, 101, 102, 101, 103]);
  });

  it("does not call an assigner that has no samples", () => {
    const grouped = new RecordingAssigner("g");
    const singleton = new RecordingAssigner("s");
    const credit = new RoleAwareCredit({ grouped, singleton });
    expect(credit.assign([creditSample("a", "solver", 1), creditSample("a", "solver", 0)])).toEqual([100, 101]);
    expect(credit.assign([creditSample("b", "proposer", 1)])).toEqual([100]);
    expect(credit.assign([])).toEqual([]);
    expect(grouped.batches).toHaveLength(1);
    expect(singleton.batches).toHaveLength(1);
  });

  it("gives a solver group that happens to have one member to the singleton baseline", () => {
    const credit = new RoleAwareCredit({ singleton: new RoleBaselineAdvantage({ decay: 0.5 }) });
    credit.assign([creditSample("q0", "solver", 0.5)]); // solver baseline 0.5
    expect(credit.assign([creditSample("q1", "solver", 1)])).toEqual([0.5]);
  });

  it("snapshots and restores the stateful part so a restored credit continues identically", () => {
    const original = new RoleAwareCredit({ singleton: new RoleBaselineAdvantage({ decay: 0.5 }) });
    original.assign([creditSample("p1", "proposer", 1), creditSample("p2", "proposer", 0)]); // baseline 0.5
    const snapshot = JSON.parse(JSON.stringify(original.snapshot())) as JsonValue;
    expect(snapshot).toEqual({ grouped: null, singleton: { proposer: 0.5 } });

    const restored = new RoleAwareCredit({ singleton: new RoleBaselineAdvantage({ decay: 0.5 }) });
    restored.restore(snapshot);
    const next = [creditSample("p3", "proposer", 0.75), creditSample("q", "solver", 2), creditSample("q", "solver", 0)];
    const expected = [0.25, 1 / (Math.SQRT2 + 1e-4), -1 / (Math.SQRT2 + 1e-4)];
    expectAllClose(restored.assign(next), expected);
    expectAllClose(original.assign(next), expected);
    expect(restored.snapshot()).toEqual(original.snapshot());
  });

  it("passes each part of the state to the assigner that owns it", () => {
    const grouped = new RoleBaselineAdvantage();
    const singleton = new RoleBaselineAdvantage();
    const credit = new RoleAwareCredit({ grouped, singleton });
    credit.restore({ grouped: { solver: 0.1 }, singleton: { proposer: 0.9 } });
    expect(grouped.baseline("solver")).toBe(0.1);
    expect(singleton.baseline("proposer")).toBe(0.9);
    expect(credit.snapshot()).toEqual({ grouped: { solver: 0.1 }, singleton: { proposer: 0.9 } });
  });
});
