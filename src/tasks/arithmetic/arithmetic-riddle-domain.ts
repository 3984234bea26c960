import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { RoleSchema } from "../../core/schemas/role.js";
import type { AnswerGrade, Riddle, RiddleValidity, SolverAnswer } from "../../riddles/riddle-contracts.js";
import { firstInteger } from "../../core/answers/answer-extractors.js";
import { parseArithmeticExpression } from "./arithmetic-expression.js";
import { RIDDLE_ROLE_IDS, type DraftRequest, type RiddleDomain, type RiddleDraft, type SolveRequest } from "../../riddles/domains/riddle-domain.js";

export interface ArithmeticDomainOptions {
  /** Largest operand a valid riddle may have. Default 99 (the bundled base's range). */
  maxOperand?: number;
  /**
   * Restrict the riddler to `a±b` by a GBNF grammar (the engine supports it;
   * a client without grammar support must set false). Default true.
   */
  grammar?: boolean;
  /** What the riddler is asked for, one drawn per draft: the bundled base writes a problem after `propose <kind>`. */
  kinds?: readonly string[];
}

/** The problem kinds the bundled base was pretrained to propose (its cluster names). */
export const ARITHMETIC_RIDDLE_KINDS: readonly string[] = [
  "add-1x1-no-carry",
  "add-1x1-carry",
  "add-2x1-no-carry",
  "add-2x1-carry",
  "add-2x2-no-carry",
  "add-2x2-carry",
  "subtract-2x1-no-borrow",
  "subtract-2x2-no-borrow",
];

/** One or two digits, plus or minus, one or two digits: every string of it parses. */
export const ARITHMETIC_RIDDLE_GRAMMAR = 'root ::= [1-9]? [0-9] [+-] [1-9]? [0-9]';

/**
 * Riddles a program checks, which the bundled byte-level arithmetic base can
 * play: the riddler writes `a±b` (grammar-restricted) after `propose <kind>`,
 * code fills the solution and grading rules, validity is "parses, operands
 * within bounds"; solvers complete `a±b=` and code reads their first integer.
 * The base cannot read instructions, memories or ask for help, so prompts are
 * exactly what it was pretrained on and profiles differ by temperature only.
 */
export class ArithmeticDomain implements RiddleDomain {
  readonly name = "arithmetic" as const;
  readonly helpRequests = false;
  readonly roles = {
    riddler: RoleSchema.parse({ id: RIDDLE_ROLE_IDS.riddler, sampler: { maxTokens: 8 } }),
    solver: RoleSchema.parse({ id: RIDDLE_ROLE_IDS.solver, sampler: { maxTokens: 8 } }),
    partner: RoleSchema.parse({ id: RIDDLE_ROLE_IDS.partner, sampler: { maxTokens: 8 } }),
  };
  private readonly maxOperand: number;
  private readonly grammar: boolean;
  private readonly kinds: readonly string[];

  constructor(options: ArithmeticDomainOptions = {}) {
    this.maxOperand = options.maxOperand ?? 99;
    if (!Number.isInteger(this.maxOperand) || this.maxOperand < 1) throw new InvalidInputError("maxOperand", "an integer ≥ 1", options.maxOperand);
    this.grammar = options.grammar ?? true;
    this.kinds = options.kinds ?? ARITHMETIC_RIDDLE_KINDS;
    if (this.kinds.length === 0) throw new InvalidInputError("kinds", "at least one problem kind", options.kinds);
  }

  async draftRiddle(context: EpisodeContext, request: DraftRequest): Promise<RiddleDraft> {
    const kind = context.random(`riddler-kind-${request.attempt}`).pick(this.kinds);
    const response = await context.callModel(
      RIDDLE_ROLE_IDS.riddler,
      [{ role: "user", content: `propose ${kind}` }],
      this.grammar ? { constraint: { kind: "grammar", gbnf: ARITHMETIC_RIDDLE_GRAMMAR } } : {},
    );
    const expression = parseArithmeticExpression(response.text);
    if (!expression) return { riddle: null, raw: response.text, notes: "not a+b or a-b", step: response.step };
    const riddle: Riddle = {
      riddle: expression.text,
      solution: String(expression.answer),
      solutionRationale: `${expression.text}=${expression.answer}, computed by code`,
      tags: [expression.operator === "+" ? "add" : "subtract", kind],
      difficultyGuessPct: 50,
      gradingRules: "the first integer of the answer must equal the solution",
    };
    return { riddle, raw: response.text, notes: "", step: response.step };
  }

  async checkValidity(_context: EpisodeContext, riddle: Riddle): Promise<RiddleValidity> {
    const expression = parseArithmeticExpression(riddle.riddle);
    if (!expression) return { valid: false, notes: "not a+b or a-b" };
    if (expression.left > this.maxOperand || expression.right > this.maxOperand) {
      return { valid: false, notes: `an operand is above ${this.maxOperand}` };
    }
    if (String(expression.answer) !== riddle.solution) return { valid: false, notes: `the solution is ${expression.answer}, not ${riddle.solution}` };
    return { valid: true, notes: "" };
  }

  async solve(context: EpisodeContext, request: SolveRequest): Promise<{ answer: SolverAnswer | null; raw: string }> {
    const response = await context.callModel(RIDDLE_ROLE_IDS.solver, [{ role: "user", content: `${request.riddle}=` }], {
      sampler: { temperature: request.profile.temperature },
    });
    const integer = firstInteger(response.text);
    const answer: SolverAnswer | null =
      integer === undefined ? null : { finalAnswer: integer, confidence: 0.5, checks: [], helpRequest: { needed: false, whatITried: "", whereIAmStuck: "" } };
    return { answer, raw: response.text };
  }

  async consultPartner(): Promise<string> {
    // helpRequests is false: the episode never asks.
    throw new InvalidInputError("domain", "a domain whose solvers can ask for help (free-form)", "arithmetic");
  }

  async grade(_context: EpisodeContext, riddle: Riddle, answer: SolverAnswer | null): Promise<AnswerGrade> {
    if (!answer) return { correct: false, notes: "no integer in the reply" };
    const correct = answer.finalAnswer === riddle.solution;
    return { correct, notes: correct ? "" : `${answer.finalAnswer} ≠ ${riddle.solution}` };
  }
}
