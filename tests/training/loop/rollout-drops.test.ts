import { describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { roleRewards } from "../../../src/training/loop/role-rewards.js";
import { rolloutDrops } from "../../../src/training/loop/rollout-drops.js";
import { rolloutFailures } from "../../../src/training/loop/rollout-failures.js";
import { failedResult, makeRollout, scoredResult } from "../../helpers/make-step.js";

function droppedResult(id: string, name: string): GenerateResult {
  return { ...failedResult(makeRollout({ id })), outcome: { status: "dropped", stage: "score", reason: { name, message: `${id} is dropped` } } };
}

describe("rolloutDrops", () => {
  it("counts dropped rollouts, sub-episodes included, by their reason's name; they are neither scored nor failed", () => {
    const parent = { ...scoredResult(makeRollout({ id: "ep0" }), { a: 1 }), children: [droppedResult("ep0.0", "OffTopicError"), failedResult(makeRollout({ id: "ep0.1" }))] };
    const results = [parent, droppedResult("ep1", "HeldOutProblemError"), droppedResult("ep2", "HeldOutProblemError")];
    expect(rolloutDrops(results)).toEqual({ HeldOutProblemError: 2, OffTopicError: 1 });
    expect(roleRewards(results)).toEqual({ rewards: { a: 1 }, scored: 1, failed: 1, dropped: 3 });
    expect(rolloutFailures(results).byStage).toEqual({ rollout: { Error: 1 } });
  });

  it("is empty when nothing was dropped", () => {
    expect(rolloutDrops([scoredResult(makeRollout(), { a: 0 }), failedResult(makeRollout())])).toEqual({});
  });
});
