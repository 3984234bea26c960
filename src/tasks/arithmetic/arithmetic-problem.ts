import { parseArithmeticExpression } from "./arithmetic-expression.js";

/** An addition or subtraction of non-negative integers, as a proposer writes it: its canonical text and answer. */
export interface ArithmeticProblem {
  /** Canonical text, e.g. `23+45`. */
  text: string;
  answer: number;
}

/** Parses the first line of a proposer's reply (the riddle domain's parser); undefined when it is not `a+b` or `a-b`. */
export function parseArithmeticProblem(reply: string): ArithmeticProblem | undefined {
  const expression = parseArithmeticExpression(reply);
  return expression && { text: expression.text, answer: expression.answer };
}
