import { describe, expect, it } from "vitest";
import { InvalidRewardError } from "../../../src/core/errors/index.js";
import { absoluteZeroReward } from "../../../src/core/rewards/absolute-zero-reward.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { MonteCarloVerifier } from "../../../src/core/verifiers/monte-carlo-verifier.js";
import { fakeScoringContext } from "../../helpers/fake-scoring-context.js";
import { failedResult, makeRollout, makeStep, scoredResult } from "../../helpers/make-step.js";

const parent = makeRollout({ id: "ep5", steps: [makeStep("proposer", "What is 6 × 7?")] });

function child(index: number, solverReward: number): GenerateResult {
  return scoredResult(makeRollout({ id: `ep5.${index}`, steps: [makeStep("solver", "42")] }), { solver: solverReward });
}

function failedChild(index: number): GenerateResult {
  return failedResult(makeRollout({ id: `ep5.${index}` }));
}

const passed = (result: GenerateResult) => result.rewards["solver"] === 1;

describe("MonteCarloVerifier", () => {
  it("rewards the role from the pass rate over scored children only", async () => {
    const rates: number[] = [];
    const verifier = new MonteCarloVerifier({
      roleId: "proposer",
      passed,
      reward: (passRate) => {
        rates.push(passRate);
        return absoluteZeroReward(passRate);
      },
    });
    const children = [child(0, 1), failedChild(1), child(2, 0), child(3, 1)];
    const output = await verifier.score(parent, fakeScoringContext({ children }));
    expect(rates).toEqual([2 / 3]);
    expect(output).toEqual({
      rewards: { proposer: 1 - 2 / 3 },
      details: { passRate: 2 / 3, passes: 2, scoredChildren: 3, failedChildren: 1 },
    });
  });

  it("asks passed() only about scored children", async () => {
    const asked: string[] = [];
    const verifier = new MonteCarloVerifier({
      roleId: "proposer",
      passed: (result) => {
        asked.push(result.rollout.id);
        return passed(result);
      },
      reward: (passRate) => passRate,
    });
    await verifier.score(parent, fakeScoringContext({ children: [failedChild(0), child(1, 1), failedChild(2), child(3, 0)] }));
    expect(asked).toEqual(["ep5.1", "ep5.3"]);
  });

  it("gives pass rates 0 and 1 at the extremes", async () => {
    const verifier = new MonteCarloVerifier({ roleId: "proposer", passed, reward: (passRate) => passRate });
    const none = await verifier.score(parent, fakeScoringContext({ children: [child(0, 0), child(1, 0)] }));
    expect(none.rewards).toEqual({ proposer: 0 });
    expect(none.details).toEqual({ passRate: 0, passes: 0, scoredChildren: 2, failedChildren: 0 });
    const all = await verifier.score(parent, fakeScoringContext({ children: [child(0, 1), child(1, 1), failedChild(2)] }));
    expect(all.rewards).toEqual({ proposer: 1 });
    expect(all.details).toEqual({ passRate: 1, passes: 2, scoredChildren: 2, failedChildren: 1 });
  });

  it("one pass in four gives a pass rate of 0.25", async () => {
    const verifier = new MonteCarloVerifier({ roleId: "proposer", passed, reward: (passRate) => passRate });
    const output = await verifier.score(
      parent,
      fakeScoringContext({ children: [child(0, 0), child(1, 1), child(2, 0), child(3, 0)] }),
    );
    expect(output.rewards).toEqual({ proposer: 0.25 });
  });

  it("throws InvalidRewardError when no child was scored", async () => {
    const verifier = new MonteCarloVerifier({ roleId: "proposer", passed, reward: (passRate) => passRate });
    await expect(verifier.score(parent, fakeScoringContext({ children: [] }))).rejects.toThrow(InvalidRewardError);
    const allFailed = verifier.score(parent, fakeScoringContext({ children: [failedChild(0), failedChild(1)] }));
    await expect(allFailed).rejects.toThrow(InvalidRewardError);
    await expect(allFailed).rejects.toThrow("rollout ep5: none of its 2 sub-episodes was scored");
  });

  it("lets an error from the reward function through", async () => {
    const verifier = new MonteCarloVerifier({
      roleId: "proposer",
      passed,
      reward: () => {
        throw new RangeError("bad reward");
      },
    });
    await expect(verifier.score(parent, fakeScoringContext({ children: [child(0, 1)] }))).rejects.toThrow(RangeError);
  });
});
