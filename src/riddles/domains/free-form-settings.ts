import { z } from "zod";

const tokens = z.int().min(1).max(8192);

/**
 * The free-form domain's knobs (the curriculum config's `freeForm`): how many
 * attempts its schema-bound calls get, each role's and the critic's token
 * budget, and whether a worked exchange comes before each request. The
 * defaults suit an instruction model of a billion parameters or more; a small
 * chat model (SmolLM2-135M) needs `workedExamples` and budgets its context
 * holds.
 */
export const FreeFormSettingsSchema = z.strictObject({
  /** Attempts of a solver's schema-bound call (each a Step). Default 2. */
  solverAttempts: z.int().min(1).max(10).default(2),
  /** Attempts of each critic call (judge calls, not Steps). Default 2. */
  criticAttempts: z.int().min(1).max(10).default(2),
  /** Completion tokens of a riddler's draft, its JSON. Default 400. */
  riddlerMaxTokens: tokens.default(400),
  /** Completion tokens of a solver's answer, its JSON. Default 200. */
  solverMaxTokens: tokens.default(200),
  /** Completion tokens of a partner's hint. Default 80. */
  partnerMaxTokens: tokens.default(80),
  /** Completion tokens of the critic's validity check. Default 160. */
  validityMaxTokens: tokens.default(160),
  /** Completion tokens of the critic's grade of one answer. Default 120. */
  gradeMaxTokens: tokens.default(120),
  /**
   * Put one worked exchange before each riddler, solver and critic request,
   * as an earlier user and assistant turn: a short riddle in the contract's
   * JSON, an answer in the solver's, a verdict and a grade in the critic's. A
   * small chat model copies a form shown in a turn where the instruction
   * alone does not move it (SmolLM2-135M wrote `{"riddle": "1:100,
   * solution:", …}` without one). Default false.
   */
  workedExamples: z.boolean().default(false),
});
export type FreeFormSettings = z.infer<typeof FreeFormSettingsSchema>;
export type FreeFormDomainOptions = z.input<typeof FreeFormSettingsSchema>;
