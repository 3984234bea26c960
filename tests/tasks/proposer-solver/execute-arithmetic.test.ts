import { describe, expect, it } from "vitest";
import { parseArithmeticProblem } from "../../../src/tasks/arithmetic/arithmetic-problem.js";
import { executeArithmetic, MAX_ARITHMETIC_MAGNITUDE } from "../../../src/tasks/proposer-solver/execute-arithmetic.js";

describe("executeArithmetic, the proposer's executor", () => {
  it("evaluates +, - and * with the usual precedence, left to right, and writes the canonical text", () => {
    expect(executeArithmetic("12+7")).toEqual({ text: "12+7", answer: 19 });
    expect(executeArithmetic(" 2 + 3 * 4 ")).toEqual({ text: "2+3*4", answer: 14 });
    expect(executeArithmetic("(2+3)*4")).toEqual({ text: "(2+3)*4", answer: 20 });
    expect(executeArithmetic("10-4-3")).toEqual({ text: "10-4-3", answer: 3 });
    expect(executeArithmetic("3-17")).toEqual({ text: "3-17", answer: -14 });
    expect(executeArithmetic("007 * (1 + (2 - 5))")).toEqual({ text: "7*(1+(2-5))", answer: -14 });
  });

  it("reads a±b as the bundled base's parser does", () => {
    for (const text of ["23+45", " 23 + 45", "3-17", "0+0", "099-1"]) expect(executeArithmetic(text)).toEqual(parseArithmeticProblem(text));
  });

  it("refuses what has no single integer answer it can compute exactly", () => {
    for (const text of ["", "12+", "+3", "-3", "(1+2", "1+2)", "()", "2/3", "2^3", "1.5+1", "what is 2+3?", "2 3"]) expect(executeArithmetic(text), text).toBeUndefined();
    expect(executeArithmetic(`${MAX_ARITHMETIC_MAGNITUDE}+0`)).toEqual({ text: `${MAX_ARITHMETIC_MAGNITUDE}+0`, answer: MAX_ARITHMETIC_MAGNITUDE });
    expect(executeArithmetic(`${MAX_ARITHMETIC_MAGNITUDE + 1}`)).toBeUndefined();
    expect(executeArithmetic("999*999*999*999")).toBeUndefined();
    expect(executeArithmetic(`${MAX_ARITHMETIC_MAGNITUDE}+1`)).toBeUndefined();
  });
});
