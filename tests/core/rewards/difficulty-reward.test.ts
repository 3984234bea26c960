import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { DifficultyRewardSchema, difficultyReward } from "../../../src/core/rewards/difficulty-reward.js";

describe("DifficultyRewardSchema", () => {
  it("fills the gaussian defaults: target 0.5, sigma 0.1", () => {
    expect(DifficultyRewardSchema.parse({ kind: "gaussian" })).toEqual({ kind: "gaussian", target: 0.5, sigma: 0.1 });
    expect(DifficultyRewardSchema.parse({ kind: "gaussian", target: 0.3 })).toEqual({
      kind: "gaussian",
      target: 0.3,
      sigma: 0.1,
    });
  });

  it("accepts the parameterless kinds", () => {
    expect(DifficultyRewardSchema.parse({ kind: "absolute-zero" })).toEqual({ kind: "absolute-zero" });
    expect(DifficultyRewardSchema.parse({ kind: "r-zero" })).toEqual({ kind: "r-zero" });
  });

  it.each([
    { kind: "linear" },
    {},
    { kind: "gaussian", sigma: 0 },
    { kind: "gaussian", sigma: -0.1 },
    { kind: "gaussian", target: 1.5 },
    { kind: "gaussian", target: -0.5 },
  ])("rejects %j", (input) => {
    expect(DifficultyRewardSchema.safeParse(input).success).toBe(false);
  });
});

describe("difficultyReward", () => {
  it("dispatches gaussian with its parameters", () => {
    expect(difficultyReward({ kind: "gaussian", target: 0.25, sigma: 0.25 }, 0.5)).toBe(Math.exp(-0.5));
    expect(difficultyReward({ kind: "gaussian", target: 0.25, sigma: 0.25 }, 0.25)).toBe(1);
    expect(difficultyReward(DifficultyRewardSchema.parse({ kind: "gaussian" }), 0.5)).toBe(1);
  });

  it("dispatches absolute-zero", () => {
    expect(difficultyReward({ kind: "absolute-zero" }, 0.25)).toBe(0.75);
    expect(difficultyReward({ kind: "absolute-zero" }, 1)).toBe(0);
  });

  it("dispatches r-zero", () => {
    expect(difficultyReward({ kind: "r-zero" }, 0.75)).toBe(0.25);
    expect(difficultyReward({ kind: "r-zero" }, 0)).toBe(0);
  });

  it("passes invalid pass rates on as InvalidInputError", () => {
    expect(() => difficultyReward({ kind: "r-zero" }, 2)).toThrow(InvalidInputError);
    expect(() => difficultyReward({ kind: "absolute-zero" }, -1)).toThrow(InvalidInputError);
    expect(() => difficultyReward({ kind: "gaussian", target: 0.5, sigma: 0.1 }, Number.NaN)).toThrow(InvalidInputError);
  });
});
