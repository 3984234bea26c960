import { describe, expect, it } from "vitest";
import type { EpisodeContext } from "../../../src/core/episodes/episode-context.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { ArithmeticDomain } from "../../../src/tasks/arithmetic/arithmetic-riddle-domain.js";
import { firstInteger } from "../../../src/core/answers/answer-extractors.js";
import { parseArithmeticExpression } from "../../../src/tasks/arithmetic/arithmetic-expression.js";
import { createRiddleDomain } from "../../../src/tasks/riddles/create-riddle-domain.js";
import type { Riddle } from "../../../src/riddles/riddle-contracts.js";

// The arithmetic domain's critic is code: it never touches the context.
const noContext = {} as EpisodeContext;
const riddle = (text: string, solution: string): Riddle => ({ riddle: text, solution, solutionRationale: "", tags: [], difficultyGuessPct: 50, gradingRules: "" });

describe("the arithmetic riddle domain", () => {
  it("parses a±b and reads a solver's first integer", () => {
    expect(parseArithmeticExpression(" 07 + 5\nmore")).toEqual({ text: "7+5", left: 7, operator: "+", right: 5, answer: 12 });
    expect(parseArithmeticExpression("3-9")?.answer).toBe(-6);
    expect(parseArithmeticExpression("3*9")).toBeUndefined();
    expect(firstInteger("= -04 apples")).toBe("-4");
    expect(firstInteger("none")).toBeUndefined();
  });

  it("accepts a riddle that parses, within bounds and with the computed solution; rejects others with a reason", async () => {
    const domain = new ArithmeticDomain({ maxOperand: 50 });
    expect(await domain.checkValidity(noContext, riddle("12+7", "19"))).toEqual({ valid: true, notes: "" });
    expect(await domain.checkValidity(noContext, riddle("51+7", "58"))).toEqual({ valid: false, notes: "an operand is above 50" });
    expect(await domain.checkValidity(noContext, riddle("12+7", "20"))).toEqual({ valid: false, notes: "the solution is 19, not 20" });
    expect(await domain.checkValidity(noContext, riddle("twelve", "12"))).toEqual({ valid: false, notes: "not a+b or a-b" });
  });

  it("grades by code: the answer's integer must equal the solution", async () => {
    const domain = new ArithmeticDomain();
    const answer = (finalAnswer: string) => ({ finalAnswer, confidence: 0.5, checks: [], helpRequest: { needed: false, whatITried: "", whereIAmStuck: "" } });
    expect(await domain.grade(noContext, riddle("12+7", "19"), answer("19"))).toEqual({ correct: true, notes: "" });
    expect(await domain.grade(noContext, riddle("12+7", "19"), answer("18"))).toEqual({ correct: false, notes: "18 ≠ 19" });
    expect(await domain.grade(noContext, riddle("12+7", "19"), null)).toEqual({ correct: false, notes: "no integer in the reply" });
  });

  it("has no help requests, and rejects bad options naming the field", () => {
    expect(new ArithmeticDomain().helpRequests).toBe(false);
    expect(() => new ArithmeticDomain({ maxOperand: 0 })).toThrow(InvalidInputError);
    expect(() => new ArithmeticDomain({ kinds: [] })).toThrow(/kinds/);
    expect(createRiddleDomain("arithmetic").name).toBe("arithmetic");
    expect(createRiddleDomain("free-form").name).toBe("free-form");
    expect(createRiddleDomain("free-form").helpRequests).toBe(true);
  });
});
