const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * Whether an extracted answer is the expected one: equal as numbers when both
 * are numbers (`68.0` is `68`, `1,250` is `1250`; a unit or a dollar sign
 * around it is not dropped), else equal as text, both trimmed.
 */
export function answersMatch(answer: string | undefined, expected: string): boolean {
  if (answer === undefined) return false;
  const [given, wanted] = [answer.trim().replace(/,/g, ""), expected.trim().replace(/,/g, "")];
  if (NUMBER.test(given) && NUMBER.test(wanted)) return Number(given) === Number(wanted);
  return answer.trim() === expected.trim();
}
