import { z } from "zod";
import type { Constraint } from "../../core/schemas/constraint.js";
import { executeArithmetic, type ExecutedArithmetic } from "./execute-arithmetic.js";

/**
 * The proposer's JSON under `proposal: "json"`: one object, `{"problem": "<expression>"}`, whose expression is
 * numbers of up to three digits joined by `+`, `-` or `*` (at most four operators a level, spaces around them
 * allowed), in parentheses at any depth. Every sentence of the grammar is JSON the executor reads; only a
 * completion cut short by its token budget, or a value past the executor's bound, is no problem.
 */
export const JSON_PROPOSAL_GRAMMAR: Constraint = {
  kind: "grammar",
  gbnf: [
    'root ::= "{\\"problem\\": \\"" expression "\\"}"',
    'expression ::= operand (" "? [-+*] " "? operand){0,4}',
    'operand ::= number | "(" expression ")"',
    'number ::= "0" | [1-9] [0-9]{0,2}',
  ].join("\n"),
};

const JsonProposalSchema = z.strictObject({ problem: z.string() });

/** The problem a JSON proposal states, executed; undefined when the text is not such an object or the executor refuses its expression. */
export function parseJsonProposal(text: string): ExecutedArithmetic | undefined {
  let candidate: unknown;
  try {
    candidate = JSON.parse(text);
  } catch {
    return undefined;
  }
  const proposal = JsonProposalSchema.safeParse(candidate);
  return proposal.success ? executeArithmetic(proposal.data.problem) : undefined;
}
