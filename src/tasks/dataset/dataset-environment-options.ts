import { z } from "zod";
import { AnswerExtractorSchema } from "../../core/answers/answer-extractors.js";
import { JsonObjectSchema, JsonValueSchema, type JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import type { RewardInput } from "./dataset-rubric.js";
import { HeldOutSchema } from "./held-out-split.js";
import { DatasetFormatSchema } from "./read-dataset.js";

/** The prompt of a row: its text (sent as one user message) or the messages themselves. */
export type PromptFunction = (item: JsonObject) => string | Messages;

const isRewardInput = (value: unknown): value is RewardInput =>
  typeof value === "function" || (typeof value === "object" && value !== null && typeof (value as { fn?: unknown }).fn === "function");

/** The form the prompt asks the answer in: what reads it, and the weight of the reward for answering in it. */
const AnswerFormatSchema = z.strictObject(
  {
    /** The extractor that reads the asked form alone (`answer-line`, `boxed`, …: the names `extractor` takes). */
    extractor: AnswerExtractorSchema,
    /** Weight of the `format` reward function, ≥ 0. Default 0: `strictAccuracy` is measured, nothing is paid for the form. */
    weight: z.number().min(0).default(0),
  },
  // `format` named a data file's format before; that is `dataFormat`.
  { error: '{"extractor": an answer extractor such as "answer-line", "weight"?: a number ≥ 0} (a data file\'s format is `dataFormat`)' },
);

/** The options of a dataset environment (`createDatasetEnvironment`, `--env dataset`). Functions only from code; a config file gives the JSON ones. */
export const DatasetEnvironmentOptionsSchema = z.strictObject({
  /** The rows: a file path (`--data FILE`; .jsonl, .json, .csv or .parquet) or, from code, an array of objects. */
  data: z.union([z.string().min(1), z.array(JsonObjectSchema).min(1, "at least one row")], { error: "a file path or an array of row objects" }),
  /** The file's format (`data`'s, and `heldOut.data`'s when that is a file): `jsonl`, `json`, `csv` or `parquet`. Default: by the file's extension. */
  dataFormat: DatasetFormatSchema.optional(),
  /** The prompt: the column holding it (default `prompt`), or from code a function `(item) => string | messages`. */
  prompt: z.union([z.string().min(1), z.custom<PromptFunction>((value) => typeof value === "function", "a function (item) => string | messages")]).default("prompt"),
  /** The column the built-in `exactMatch` reward compares with (used only when `rewards` is not given). Default `answer`. */
  answer: z.string().min(1).default("answer"),
  /**
   * A system prompt put before every row's prompt (a row whose messages open
   * with their own system message keeps it). Default: none, as the bundled
   * base, which has no chat template, wants.
   */
  system: z.string().min(1).optional(),
  /**
   * Worked examples put before every row's prompt (after the system prompt)
   * as earlier turns of the conversation: `[{ user, assistant }, …]`. A small
   * chat model copies their form — a short worked answer ending
   * `Answer: <n>` — where an instruction alone does not move it. Default: none.
   */
  fewShot: z.array(z.strictObject({ user: z.string().min(1), assistant: z.string().min(1) })).default([]),
  /**
   * How the built-in `exactMatch` reward reads the answer out of a
   * completion: `tolerant` (the last `\boxed{…}`, else the last `Answer: …`,
   * else the last number — what a chat model's reply gives up however it is
   * worded), `boxed`, `answer-line`, `last-number`, `first-integer`,
   * `first-line` or `text`. Numbers compare as numbers (`68.0` is `68`).
   * Default `first-line`.
   */
  extractor: AnswerExtractorSchema.default("first-line"),
  /**
   * The form the prompt asks the answer in, `{ extractor, weight }` (e.g.
   * `{ "extractor": "answer-line" }` for "end with `Answer: <number>`"):
   * evaluations report `strictAccuracy`, the share right when read only by
   * `extractor`. With `weight` > 0 a second reward function, `format` — 1 when
   * `extractor` finds an answer (right or wrong), else 0 — is paid with that
   * weight beside `exactMatch`, so the two are told apart in the metrics.
   * Default: none.
   */
  format: AnswerFormatSchema.optional(),
  /**
   * The column naming each row's cluster (text or a number, on every row),
   * which `frontier.mode` learnable/prm chooses among and group sizing sizes
   * by. Default: none — the environment declares no clusters.
   */
  cluster: z.string().min(1).optional(),
  /**
   * Plain reward functions `(completion, item) => number | null` (null
   * abstains), or `{ name, weight, fn }`; the reward is Σ weight · score. Only
   * from code. Default: `exactMatch`, 1 when the completion's first line
   * equals the `answer` column (both trimmed), else 0.
   */
  rewards: z.array(z.custom<RewardInput>(isRewardInput, "a function (completion, item) => number | null, or { name, weight, fn }")).min(1).optional(),
  /**
   * Held out from training, evaluated greedily: a fraction of the rows (by
   * seeded hash); `{ column, value }` (rows whose column holds value, default
   * true); `{ rule: "hashed", column, modulus }` (rows whose column's text
   * hashes, FNV-1a 32, to 0 mod modulus, default 10: the same rows whatever
   * the rest of the row); or `{ data }`, held-out rows of their own (a file
   * path or, from code, an array), every row of `data` then trained on.
   * Default 0.1.
   */
  heldOut: HeldOutSchema.default(0.1),
  /** Seed of the fractional held-out split. Default 0. */
  seed: z.number().int().min(0).default(0),
  /** The reward function whose mean over the held-out rows is the held-out accuracy (abstaining counts 0). Default: the first. */
  evaluateBy: z.string().min(1).optional(),
  /** Held-out rows per evaluation (greedy; `selfplay eval --samples K` adds pass@K over the same rows). Default 300. */
  evaluateItems: z.number().int().min(1).default(300),
  /** Rows per step. Default 16. */
  prompts: z.number().int().min(1).default(16),
  /** Completions per row: the GRPO group. Default 8. */
  groupSize: z.number().int().min(1).default(8),
  /**
   * The student's sampling temperature, in rollouts and in pass@k. A small
   * chat model sampled at 1 over its whole vocabulary mostly rambles; below 1
   * the trainer still reproduces the distribution (top-p or top-k would not).
   * Default: the run's `temperature` (1), and 1 for pass@k.
   */
  temperature: z.number().positive().optional(),
  /**
   * Positions a sequence of the engine holds (prompt and completion). Default:
   * the model file's context, capped by memory — 8,192 for SmolLM2, which at
   * 16 sequences is about 6 GB for prompts of a few hundred tokens.
   */
  contextSize: z.number().int().min(1).optional(),
  /** Completion tokens at most. Default 16. */
  maxTokens: z.number().int().min(1).default(16),
  /** The environment's name, in checkpoints and logs. Default `dataset`. */
  name: z.string().min(1).default("dataset"),
  /**
   * The module whose `createEnvironment(options)` makes this environment, for
   * pool workers (`--workers N`) to make its functions again. Default: the
   * module selfplay is loading it from (`--env ./my-env.js`).
   */
  source: z.strictObject({ module: z.string().min(1), options: JsonValueSchema.optional() }).optional(),
});
export type DatasetEnvironmentOptions = z.input<typeof DatasetEnvironmentOptionsSchema>;
