import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Environment } from "../../environments/environment.js";
import { AnswerFormatSchema } from "./exact-match-episode.js";
import { exactMatchEpisodeModule } from "./exact-match-episodes.js";
import { evaluateExactMatch } from "./evaluate-exact-match.js";
import { isHeldOutQuestion, readQuestions, twoDigitQuestions } from "./exact-match-questions.js";

/** The options of the `exact-match` environment. */
export const ExactMatchEnvironmentOptionsSchema = z.strictObject({
  /**
   * A JSONL file of `{"question", "answer"}` lines, each optionally with a
   * `"cluster"` (on every line or on none) for `frontier.mode` learnable/prm
   * and group sizing; default every two-digit addition and subtraction
   * (`57-23=` → `34`), clustered by operation, carry/borrow and result size.
   */
  data: z.string().min(1).optional(),
  /** Held-out questions (JSONL); default the tenth of `data` whose FNV-1a hash ≡ 0 mod 10, never trained on. */
  heldOut: z.string().min(1).optional(),
  /** How the answer is read: `integer` (the completion's first integer) or `text` (all of it, trimmed). Default `integer` for the default data, else `text`. */
  answerFormat: AnswerFormatSchema.optional(),
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

/**
 * Single-turn questions with exact answers — TRL's GRPO on a dataset: each
 * step draws questions, samples a group of answers to each, and rewards an
 * exact match (1) over a miss (0). Held-out accuracy is greedy; pass@k on
 * request (`selfplay eval --env exact-match --samples K`).
 */
export function createExactMatchEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(ExactMatchEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const all = parsed.data === undefined ? twoDigitQuestions() : readQuestions(parsed.data);
  const answerFormat = parsed.answerFormat ?? (parsed.data === undefined ? "integer" : "text");
  const training = parsed.heldOut === undefined ? all.filter((question) => !isHeldOutQuestion(question)) : all;
  const heldOut = (parsed.heldOut === undefined ? all.filter(isHeldOutQuestion) : readQuestions(parsed.heldOut)).slice(0, parsed.evaluateQuestions);
  return {
    name: "exact-match",
    episodes: exactMatchEpisodeModule({ maxTokens: parsed.maxTokens, answerFormat }),
    stores: { "exact-match": ArtifactStore.of(training, { capacity: Math.max(training.length, 1) }) },
    plan: [{ episodeType: "exact-match", count: parsed.prompts, groupSize: parsed.groupSize }],
    ...(training[0]?.cluster !== undefined && {
      clusters: {
        episodeType: "exact-match",
        names: [...new Set(training.map((question) => question.cluster as string))].sort(),
        of: (artifact) => String((artifact as { cluster?: unknown } | null)?.cluster),
      },
    }),
    evaluate: (client, options = {}) => evaluateExactMatch(client, heldOut, { ...options, maxTokens: parsed.maxTokens, answerFormat }),
    evaluatesPassAtK: true,
    summarise: (results: readonly GenerateResult[]) => {
      const scored = results.filter((result) => result.outcome.status === "scored");
      return { solveRate: scored.filter((result) => (result.rewards.student ?? 0) > 0).length / Math.max(scored.length, 1) };
    },
  };
}
