import { z } from "zod";
import { compiledModuleUrl } from "../../arena/pool/compiled-module-url.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { Environment, EnvironmentFactory } from "../../environments/environment.js";
import { createDatasetEnvironment } from "../dataset/dataset-environment.js";
import { letterCountQuestions } from "./letter-count-questions.js";

/** The options of the `letter-counts` environment; the defaults are the screen's and the learning runs' (benchmarks/RESULTS.md). */
export const LetterCountsEnvironmentOptionsSchema = z.strictObject({
  /** Questions per step. Default 8. */
  prompts: z.number().int().min(1).default(8),
  /** Answers per question: the GRPO group. Default 8. */
  groupSize: z.number().int().min(1).default(8),
  /** Completion tokens at most: 3× SmolLM2-135M-Instruct's median greedy answer (17 tokens), rounded up to 16. Default 64. */
  maxTokens: z.number().int().min(1).default(64),
  /** The student's sampling temperature, in rollouts and pass@k. Default 0.7. */
  temperature: z.number().positive().default(0.7),
  /** A system prompt; default none (the chat template's own). */
  system: z.string().min(1).optional(),
  /** Weight of the `format` reward, paid for an `Answer: …` line. Default 0. */
  formatWeight: z.number().min(0).default(0),
  /** Held-out questions per evaluation (greedy). Default 300. */
  evaluateQuestions: z.number().int().min(1).default(300),
});
export type LetterCountsEnvironmentOptions = z.input<typeof LetterCountsEnvironmentOptionsSchema>;

/**
 * A chat model counts letters in words (`How many times does the letter "l"
 * appear in the word "balloon"?` → 2): a preset of the dataset environment
 * over `letterCountQuestions()`, asked in the model's chat template, the
 * answer read by the tolerant extractor (`\boxed{…}`, else `Answer: …`, else
 * the last number), the `Answer: …` form reported as strict accuracy.
 * Evaluated greedily on the held-out quarter of the words; clustered by the
 * count.
 */
export async function createLetterCountsEnvironment(options?: JsonValue): Promise<Environment> {
  const parsed = parseInput(LetterCountsEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  return createDatasetEnvironment({
    name: "letter-counts",
    data: letterCountQuestions(),
    prompt: "question",
    answer: "answer",
    cluster: "cluster",
    heldOut: { column: "split", value: "test" },
    extractor: "tolerant",
    strictExtractor: "answer-line",
    formatWeight: parsed.formatWeight,
    ...(parsed.system !== undefined && { system: parsed.system }),
    temperature: parsed.temperature,
    maxTokens: parsed.maxTokens,
    prompts: parsed.prompts,
    groupSize: parsed.groupSize,
    evaluateItems: parsed.evaluateQuestions,
    // Pool workers make it again from these options: this module's createEnvironment, not the questions as JSON.
    source: { module: compiledModuleUrl(import.meta.url), ...(options !== undefined && { options }) },
  });
}

export const createEnvironment: EnvironmentFactory = createLetterCountsEnvironment;
