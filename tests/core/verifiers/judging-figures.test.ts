import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/core/json.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { judgingFigures } from "../../../src/core/verifiers/judging-figures.js";
import { failedResult, makeRollout, scoredResult } from "../../helpers/make-step.js";

function judged(details: JsonObject, children: GenerateResult[] = []): GenerateResult {
  return { ...scoredResult(makeRollout(), { aff: 0, neg: 0 }), scoreDetails: details, children };
}

describe("judgingFigures", () => {
  it("is the share of swapped verdicts that held and of compared verdicts that agreed, sub-episodes included", () => {
    const results = [
      judged({ positionConsistent: true, judgeAgreement: true }),
      judged({ positionConsistent: false, judgeAgreement: true }),
      judged({ positionConsistent: true }, [judged({ positionConsistent: false, judgeAgreement: false })]),
    ];
    // 2 of 4 swapped verdicts held; 2 of 3 compared verdicts agreed.
    expect(judgingFigures(results)).toEqual({ positionConsistency: 0.5, swappedVerdicts: 4, judgeAgreement: 2 / 3, comparedVerdicts: 3 });
  });

  it("leaves out failed rollouts and details that are not booleans, and gives null for a figure nobody reported", () => {
    const failed = { ...failedResult(makeRollout(), "score"), scoreDetails: { positionConsistent: false } };
    expect(judgingFigures([failed, judged({ positionConsistent: "yes" }), judged({ positionConsistent: true })])).toEqual({
      positionConsistency: 1,
      swappedVerdicts: 1,
      judgeAgreement: null,
      comparedVerdicts: 0,
    });
  });

  it("is undefined when no verifier reports either figure", () => {
    expect(judgingFigures([judged({ verdict: "aff" }), failedResult(makeRollout())])).toBeUndefined();
    expect(judgingFigures([])).toBeUndefined();
  });
});
