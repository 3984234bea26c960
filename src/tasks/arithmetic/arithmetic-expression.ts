/** `a+b` or `a-b` of non-negative integers, as the bundled base writes and reads them: a riddle of the arithmetic domain, a proposer's problem. */
export interface ArithmeticExpression {
  /** Canonical text, e.g. `23+45`. */
  text: string;
  left: number;
  operator: "+" | "-";
  right: number;
  answer: number;
}

const EXPRESSION = /^\s*(\d{1,6})\s*([+-])\s*(\d{1,6})\s*$/;

/** Parses the first line of a reply; undefined when it is not `a+b` or `a-b`. */
export function parseArithmeticExpression(reply: string): ArithmeticExpression | undefined {
  const match = EXPRESSION.exec(reply.split("\n")[0] ?? "");
  if (!match) return undefined;
  const left = Number(match[1]);
  const right = Number(match[3]);
  const operator = match[2] as "+" | "-";
  return { text: `${left}${operator}${right}`, left, operator, right, answer: operator === "+" ? left + right : left - right };
}
