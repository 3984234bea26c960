/** An addition or subtraction of non-negative integers, as a proposer writes it. */
export interface ArithmeticProblem {
  /** Canonical text, e.g. `23+45`. */
  text: string;
  answer: number;
}

const PROBLEM_PATTERN = /^\s*(\d{1,6})\s*([+-])\s*(\d{1,6})\s*$/;

/** Parses the first line of a proposer's reply; undefined when it is not `a+b` or `a-b`. */
export function parseArithmeticProblem(reply: string): ArithmeticProblem | undefined {
  const match = PROBLEM_PATTERN.exec(reply.split("\n")[0] ?? "");
  if (!match) return undefined;
  const left = Number(match[1]);
  const right = Number(match[3]);
  const operator = match[2] as "+" | "-";
  return { text: `${left}${operator}${right}`, answer: operator === "+" ? left + right : left - right };
}

/** The first integer in a solver's reply (a leading minus sign included), or undefined. */
export function extractInteger(reply: string): string | undefined {
  const match = /-?\d+/.exec(reply);
  return match ? String(Number(match[0])) : undefined;
}
