import { describe, expect, it } from "vitest";
import { groupSizeForPassRate } from "../../../src/frontier/learnable/group-size-for-pass-rate.js";
import { GroupSizingSettingsSchema } from "../../../src/frontier/learnable/group-sizing-settings.js";

const bounds = { successProbability: 0.9, min: 2, max: 32 };

describe("groupSizeForPassRate", () => {
  it("is ⌈log(1 − q) / log(1 − p)⌉: 4 at p 0.5, 22 at p 0.1, 45 at p 0.05 uncapped", () => {
    expect(groupSizeForPassRate(0.5, bounds)).toBe(4);
    expect(groupSizeForPassRate(0.1, bounds)).toBe(22);
    expect(groupSizeForPassRate(0.05, { ...bounds, max: 1000 })).toBe(45);
    // The smallest G with 1 − (1 − p)^G ≥ q, for a sweep of p.
    for (let passRate = 0.01; passRate < 1; passRate += 0.01) {
      const size = groupSizeForPassRate(passRate, { ...bounds, min: 1, max: 10_000 });
      expect(1 - (1 - passRate) ** size).toBeGreaterThanOrEqual(0.9 - 1e-12);
      if (size > 1) expect(1 - (1 - passRate) ** (size - 1)).toBeLessThan(0.9);
    }
  });

  it("does not round an exact integer up (p 0.5, q 0.75: 2), and clamps: p 0.01 → the cap, p 0.9 → the minimum", () => {
    expect(groupSizeForPassRate(0.5, { ...bounds, successProbability: 0.75 })).toBe(2);
    expect(groupSizeForPassRate(0.01, bounds)).toBe(32);
    expect(groupSizeForPassRate(0, bounds)).toBe(32);
    expect(groupSizeForPassRate(0.9, bounds)).toBe(2);
    expect(groupSizeForPassRate(1, bounds)).toBe(2);
  });

  it("has settings that refuse min > max and q outside (0, 1)", () => {
    expect(GroupSizingSettingsSchema.parse({})).toEqual({ mode: "off", successProbability: 0.9, min: 2, max: 32, keepPlanRollouts: true });
    expect(() => GroupSizingSettingsSchema.parse({ min: 8, max: 4 })).toThrow(/min ≤ max/);
    expect(() => GroupSizingSettingsSchema.parse({ successProbability: 1 })).toThrow();
  });
});
