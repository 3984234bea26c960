import { describe, expect, it } from "vitest";
import { rolloutFailures } from "../../../src/training/loop/rollout-failures.js";
import { failedResult, makeRollout, scoredResult } from "../../helpers/make-step.js";

describe("rolloutFailures", () => {
  it("counts failed rollouts, sub-episodes included, by stage and error name, and keeps the first", () => {
    const typeError = { ...failedResult(makeRollout({ id: "ep1", episodeType: "echo" }), "score"), outcome: { status: "failed" as const, stage: "score" as const, error: { name: "TypeError", message: "x is undefined" } } };
    const parent = { ...scoredResult(makeRollout({ id: "ep0" }), { a: 1 }), children: [failedResult(makeRollout({ id: "ep0.0" }), "rollout")] };
    const failures = rolloutFailures([parent, typeError, { ...typeError, rollout: makeRollout({ id: "ep2" }) }]);
    expect(failures.byStage).toEqual({ rollout: { Error: 1 }, score: { TypeError: 2 } });
    expect(failures.first).toEqual({ rolloutId: "ep0.0", episodeType: "test", stage: "rollout", error: { name: "Error", message: "boom" } });
  });

  it("is empty when every rollout was scored", () => {
    expect(rolloutFailures([scoredResult(makeRollout(), { a: 0 })])).toEqual({ byStage: {}, first: undefined });
  });
});
