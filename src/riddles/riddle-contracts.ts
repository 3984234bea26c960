import { z } from "zod";

/**
 * The riddler's output: a riddle, its solution with the reasoning that lets
 * the critic check it without solving from scratch, and the rules answers are
 * graded by (wordplay, arithmetic and logic riddles grade differently).
 */
export const RiddleSchema = z.strictObject({
  riddle: z.string().min(1).max(600),
  solution: z.string().min(1).max(200),
  solutionRationale: z.string().max(600).default(""),
  tags: z.array(z.string().min(1).max(32)).max(6).default([]),
  /** The riddler's guess of the solve rate, in whole percent. */
  difficultyGuessPct: z.int().min(0).max(100).default(50),
  /** How an answer is judged correct, e.g. "same number", "synonyms accepted". */
  gradingRules: z.string().max(300).default("the answer must mean the same as the solution"),
});
export type Riddle = z.infer<typeof RiddleSchema>;

/** A solver's output: its answer and short checks only — no chain of thought is kept. */
export const SolverAnswerSchema = z.strictObject({
  finalAnswer: z.string().max(200),
  /** Self-reported, 0–1. */
  confidence: z.number().min(0).max(1).default(0.5),
  checks: z.array(z.string().max(120)).max(4).default([]),
  helpRequest: z
    .strictObject({ needed: z.boolean(), whatITried: z.string().max(200).default(""), whereIAmStuck: z.string().max(200).default("") })
    .default({ needed: false, whatITried: "", whereIAmStuck: "" }),
});
export type SolverAnswer = z.infer<typeof SolverAnswerSchema>;

/** The critic's verdict on a riddle before anyone solves it. */
export const RiddleValiditySchema = z.strictObject({
  valid: z.boolean(),
  notes: z.string().max(300).default(""),
});
export type RiddleValidity = z.infer<typeof RiddleValiditySchema>;

/** The critic's grade of one answer against the riddler's solution and grading rules. */
export const AnswerGradeSchema = z.strictObject({
  correct: z.boolean(),
  notes: z.string().max(200).default(""),
});
export type AnswerGrade = z.infer<typeof AnswerGradeSchema>;
