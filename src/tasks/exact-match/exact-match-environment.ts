import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { Environment, EnvironmentFactory } from "../../environments/environment.js";
import { createDatasetEnvironment } from "../dataset/dataset-environment.js";
import type { HeldOut } from "../dataset/held-out-split.js";
import { readQuestions, twoDigitQuestions } from "./exact-match-questions.js";

/** The options of the `exact-match` environment. */
export const ExactMatchEnvironmentOptionsSchema = z.strictObject({
  /**
   * A JSONL file of `{"question", "answer"}` lines, each optionally with a
   * `"cluster"` (on every line or on none) for `frontier.mode` learnable/prm
   * and group sizing; default every two-digit addition and subtraction
   * (`57-23=` → `34`), clustered by operation, carry/borrow and result size.
   */
  data: z.string().min(1).optional(),
  /** Held-out questions (JSONL, as `data`), every question of `data` then trained on; default the tenth of `data` whose text's FNV-1a 32 ≡ 0 mod 10, never trained on. */
  heldOut: z.string().min(1).optional(),
  /**
   * How the answer is read: `integer` (the completion's first integer: the
   * dataset's `first-integer` extractor) or `text` (all of it, trimmed:
   * `text`); numbers compare as numbers. Default `integer` for the default
   * data, else `text`.
   */
  answerFormat: z.enum(["integer", "text"]).optional(),
  /** Questions per step. Default 16. */
  prompts: z.number().int().min(1).default(16),
  /** Attempts per question: the GRPO group. Default 8. */
  groupSize: z.number().int().min(1).default(8),
  /** Completion tokens at most. Default 8. */
  maxTokens: z.number().int().min(1).default(8),
  /** Held-out questions per evaluation (greedy). Default 300. */
  evaluateQuestions: z.number().int().min(1).default(300),
});
export type ExactMatchEnvironmentOptions = z.input<typeof ExactMatchEnvironmentOptionsSchema>;

/** The default held-out rule: the questions whose text's FNV-1a 32 ≡ 0 (mod 10), a tenth no training step draws. */
const EXACT_MATCH_HELD_OUT = { rule: "hashed", column: "question", modulus: 10 } as const satisfies HeldOut;

/**
 * Single-turn questions with exact answers — TRL's GRPO on a dataset — as a
 * preset of the dataset environment: each step draws questions, samples a
 * group of answers to each (the question as the one user message, no system
 * prompt: the bundled base has no chat template), and rewards an exact match
 * (1) over a miss (0), `exactMatch.mean` on the step line. Held-out accuracy
 * is greedy; pass@k on request (`selfplay eval --env exact-match --samples K`).
 */
export async function createExactMatchEnvironment(options?: JsonValue): Promise<Environment> {
  const parsed = parseInput(ExactMatchEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const questions = parsed.data === undefined ? twoDigitQuestions() : readQuestions(parsed.data);
  const answerFormat = parsed.answerFormat ?? (parsed.data === undefined ? "integer" : "text");
  return createDatasetEnvironment({
    name: "exact-match",
    data: questions,
    prompt: "question",
    answer: "answer",
    extractor: answerFormat === "integer" ? "first-integer" : "text",
    // readQuestions gives every question a cluster or none.
    ...(questions[0]?.cluster !== undefined && { cluster: "cluster" }),
    heldOut: parsed.heldOut === undefined ? EXACT_MATCH_HELD_OUT : { data: readQuestions(parsed.heldOut, "environment.heldOut") },
    evaluateItems: parsed.evaluateQuestions,
    prompts: parsed.prompts,
    groupSize: parsed.groupSize,
    maxTokens: parsed.maxTokens,
    // Pool workers make it again from these options: this module's createEnvironment, not the questions as JSON.
    source: { module: compiledModuleUrl(import.meta.url), ...(options !== undefined && { options }) },
  });
}

/** This module as an environment module: what a pool worker calls with the options `source` recorded. */
export const createEnvironment: EnvironmentFactory = createExactMatchEnvironment;
