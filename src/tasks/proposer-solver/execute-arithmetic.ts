/** An arithmetic expression as the executor read it: its canonical text and its exact value (an ArithmeticProblem's shape). */
export interface ExecutedArithmetic {
  /** The expression without spaces, each number without leading zeros: `(12+7)*3`. */
  text: string;
  answer: number;
}

/** Largest magnitude of any number or intermediate result: beyond it the expression is refused, so every value is an exact integer. */
export const MAX_ARITHMETIC_MAGNITUDE = 1_000_000_000;

type Token = { kind: "number"; value: number } | { kind: "symbol"; symbol: "+" | "-" | "*" | "(" | ")" };

/**
 * The proposer's executor: evaluates an expression of non-negative integers
 * with `+`, `-`, `*` and parentheses (the usual precedence, left to right),
 * spaces allowed between tokens. Undefined for anything else — another
 * character, an unbalanced parenthesis, a number or intermediate result past
 * MAX_ARITHMETIC_MAGNITUDE — so an expression it returns has one exact
 * integer answer. `a+b` and `a-b` read as the bundled base's problems do.
 */
export function executeArithmetic(source: string): ExecutedArithmetic | undefined {
  const tokens = tokenize(source);
  if (tokens === undefined || tokens.length === 0) return undefined;
  let position = 0;
  const peek = () => tokens[position];
  const isSymbol = (token: Token | undefined, ...symbols: string[]) => token?.kind === "symbol" && symbols.includes(token.symbol);

  // expression := term (("+" | "-") term)*; term := factor ("*" factor)*; factor := number | "(" expression ")".
  const factor = (): ExecutedArithmetic | undefined => {
    const token = peek();
    if (token?.kind === "number") {
      position++;
      return { text: String(token.value), answer: token.value };
    }
    if (!isSymbol(token, "(")) return undefined;
    position++;
    const inner = expression();
    if (inner === undefined || !isSymbol(peek(), ")")) return undefined;
    position++;
    return { text: `(${inner.text})`, answer: inner.answer };
  };
  const chain = (operand: () => ExecutedArithmetic | undefined, symbols: readonly ("+" | "-" | "*")[]) => (): ExecutedArithmetic | undefined => {
    let left = operand();
    while (left !== undefined && isSymbol(peek(), ...symbols)) {
      const symbol = (peek() as { symbol: "+" | "-" | "*" }).symbol;
      position++;
      const right = operand();
      if (right === undefined) return undefined;
      const answer = symbol === "+" ? left.answer + right.answer : symbol === "-" ? left.answer - right.answer : left.answer * right.answer;
      if (Math.abs(answer) > MAX_ARITHMETIC_MAGNITUDE) return undefined;
      left = { text: `${left.text}${symbol}${right.text}`, answer };
    }
    return left;
  };
  const term = chain(factor, ["*"]);
  const expression = chain(term, ["+", "-"]);

  const result = expression();
  return result !== undefined && position === tokens.length ? result : undefined;
}

/** The expression's tokens, or undefined at a character that is none of digits, `+-*()` and spaces, or a number too large. */
function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  for (const match of source.matchAll(/\s*(?:(\d+)|([-+*()])|(\S))/gy)) {
    if (match[3] !== undefined) return undefined;
    if (match[1] !== undefined) {
      const value = Number(match[1]);
      if (value > MAX_ARITHMETIC_MAGNITUDE) return undefined;
      tokens.push({ kind: "number", value });
    } else if (match[2] !== undefined) {
      tokens.push({ kind: "symbol", symbol: match[2] as "+" | "-" | "*" | "(" | ")" });
    }
  }
  return tokens;
}
