import { describe, expect, it } from "vitest";
import { dropsRollout, InvalidInputError } from "../../../src/core/errors/index.js";
import { DroppedRolloutError } from "../../../src/environments/errors/index.js";
import { RewardFunctionError } from "../../../src/tasks/dataset/errors/index.js";
import { rubricOf, scoreRubric } from "../../../src/tasks/dataset/dataset-rubric.js";

const item = { question: "12+1=", answer: "13" };

describe("the dataset rubric", () => {
  it("sums weight × score, naming plain functions by fn.name", () => {
    const correct = (completion: string) => (completion.trim() === "13" ? 1 : 0);
    const rubric = rubricOf([correct, { name: "brief", weight: 0.25, fn: (completion) => (completion.length <= 3 ? 1 : 0) }]);
    expect(rubric.map((entry) => [entry.name, entry.weight])).toEqual([["correct", 1], ["brief", 0.25]]);
    expect(scoreRubric(rubric, "13", item)).toEqual({ reward: 1.25, scores: { correct: 1, brief: 1 } });
    expect(scoreRubric(rubric, " 14 ", item)).toEqual({ reward: 0, scores: { correct: 0, brief: 0 } });
  });

  it("leaves an abstaining function (null) out of the sum; all abstaining is 0", () => {
    const rubric = rubricOf([
      { name: "a", weight: 2, fn: () => 0.5 },
      { name: "b", weight: 3, fn: () => null },
    ]);
    expect(scoreRubric(rubric, "x", item)).toEqual({ reward: 1, scores: { a: 0.5, b: null } });
    expect(scoreRubric(rubricOf([{ name: "b", fn: () => null }]), "x", item)).toEqual({ reward: 0, scores: { b: null } });
  });

  it("turns a throw or a non-finite score into a RewardFunctionError naming the function, never a 0", () => {
    const rubric = rubricOf([{ name: "fine", fn: () => 1 }, { name: "broken", fn: () => { throw new Error("no answer column"); } }]);
    expect(() => scoreRubric(rubric, "13", item)).toThrow(new RewardFunctionError("broken", "threw: no answer column"));
    expect(() => scoreRubric(rubricOf([{ name: "nan", fn: () => Number.NaN }]), "13", item)).toThrow(/reward function "nan" returned NaN/);
  });

  it("keeps what the function threw as the cause, its class intact; a DroppedRolloutError from it is a RewardFunctionError too, no drop", () => {
    const typeError = new TypeError("Cannot read properties of undefined (reading 'length')");
    const thrown = (error: Error) => {
      try {
        scoreRubric(rubricOf([{ name: "short", fn: () => { throw error; } }]), "13", item);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error("scoreRubric did not throw");
    };
    const wrapped = thrown(typeError);
    expect(wrapped).toBeInstanceOf(RewardFunctionError);
    expect(wrapped.cause).toBe(typeError);
    // Only an environment's own code drops a rollout: a user's reward function cannot, even by throwing the class.
    const drop = thrown(new DroppedRolloutError("not mine to drop"));
    expect([drop.name, dropsRollout(drop), dropsRollout(drop.cause)]).toEqual(["RewardFunctionError", false, true]);
  });

  it("refuses duplicate names, an anonymous function without a name, a non-finite weight and no function at all", () => {
    expect(() => rubricOf([{ name: "a", fn: () => 1 }, { name: "a", fn: () => 0 }])).toThrow(InvalidInputError);
    expect(() => rubricOf([{ fn: (() => () => 1)() }])).toThrow(/environment\.rewards\[0\]\.name/);
    expect(() => rubricOf([{ name: "a", weight: Number.POSITIVE_INFINITY, fn: () => 1 }])).toThrow(/weight/);
    expect(() => rubricOf([])).toThrow(/at least one reward function/);
  });
});
