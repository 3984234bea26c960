/** One field of a submission that is not what the action vocabulary allows. */
export interface FieldProblem {
  /** Where, as a dotted path (`changes.quorumPercent`); `(submission)` for the whole of it. */
  field: string;
  /** What it held, as a refusal prints it: JSON text, `nothing`, or what a part JSON cannot hold was (`NaN`, `a cycle`). */
  got: string;
  /** What it must be. */
  expected: string;
  /** What it held, for an error to print (the JSON value, or the text `got` gives for a part JSON cannot hold). */
  received: unknown;
}

/** A path as a refusal names it. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join(".") || "(submission)";
}
