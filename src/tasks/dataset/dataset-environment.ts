import { pathToFileURL } from "node:url";
import { ArtifactStore } from "../../arena/artifact-store.js";
import { compiledSiblingFile } from "../../arena/pool/compiled-module-url.js";
import { extractAnswer, type AnswerExtractor } from "../../core/answers/answer-extractors.js";
import { answersMatch } from "../../core/answers/answers-match.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject, JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { MessagesSchema, type Messages } from "../../core/schemas/message.js";
import type { Environment } from "../../environments/environment.js";
import { currentEnvironmentSource, type EnvironmentSource } from "../../environments/environment-source.js";
import { registerDatasetHarness } from "./dataset-harness.js";
import { datasetEpisodeModule } from "./dataset-episodes.js";
import { DatasetEnvironmentOptionsSchema, type DatasetEnvironmentOptions } from "./dataset-environment-options.js";
import { rubricOf, type RewardInput, type RubricEntry } from "./dataset-rubric.js";
import { evaluateDataset } from "./evaluate-dataset.js";
import { splitDataset } from "./held-out-split.js";
import { summariseRewards } from "./summarise-rewards.js";

/**
 * Your own task from a dataset and plain reward functions, as TRL's
 * `GRPOTrainer(train_dataset=…, reward_funcs=…, reward_weights=…)` and a
 * verifiers environment (dataset + rubric): each step draws rows, samples a
 * group of completions of each row's prompt, and rewards each completion with
 * the weighted sum of the functions. Held-out rows are never trained on and are
 * evaluated greedily. Every function's mean and std are on each step's line.
 */
export async function createDatasetEnvironment(options: DatasetEnvironmentOptions): Promise<Environment> {
  const parsed = parseInput(DatasetEnvironmentOptionsSchema, options, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  // Before the first await: inside an environment module selfplay is loading, this names the module. Options without
  // functions are their own source: a worker makes the environment from them.
  const source = parsed.source ?? currentEnvironmentSource() ?? jsonSource(options);
  const promptOf = withSystemPrompt(withExamples(promptFunction(parsed.prompt), parsed.fewShot), parsed.system);
  const answerColumn = parsed.answer;
  const { format } = parsed;
  const correctBy = (extractor: AnswerExtractor) => (completion: string, item: JsonObject) => answersMatch(extractAnswer(extractor, completion), String(item[answerColumn] ?? ""));
  const rewards: RewardInput[] = parsed.rewards ?? [{ name: "exactMatch", fn: (completion: string, item: JsonObject) => (correctBy(parsed.extractor)(completion, item) ? 1 : 0) }];
  if (format !== undefined && format.weight > 0) {
    // A separate function, so the step line tells answering in the asked form apart from answering right.
    rewards.push({ name: "format", weight: format.weight, fn: (completion: string) => (extractAnswer(format.extractor, completion) === undefined ? 0 : 1) });
  }
  const rubric = rubricOf(rewards);
  const clusterColumn = parsed.cluster;
  const evaluateBy = parsed.evaluateBy ?? (rubric[0] as RubricEntry).name;
  if (!rubric.some((entry) => entry.name === evaluateBy)) throw new InvalidInputError("environment.evaluateBy", `one of the reward functions: ${rubric.map((entry) => entry.name).join(", ")}`, evaluateBy);
  const columns = { prompt: typeof parsed.prompt === "string" ? parsed.prompt : undefined, answer: parsed.rewards === undefined ? answerColumn : undefined, cluster: clusterColumn };
  const split = await splitDataset({ ...parsed, columns });
  const heldOut = split.heldOut.slice(0, parsed.evaluateItems);
  // The built-in reward's ground truth, recorded as each rollout's `artifacts.expected` (verl's export reads it).
  const key = registerDatasetHarness({ prompt: promptOf, rubric, ...(parsed.rewards === undefined && { expected: (item: JsonObject) => String(item[answerColumn]) }) });
  return {
    name: parsed.name,
    ...(parsed.contextSize !== undefined && { contextSize: parsed.contextSize }),
    episodes: datasetEpisodeModule({ name: parsed.name, key, maxTokens: parsed.maxTokens, ...(parsed.temperature !== undefined && { temperature: parsed.temperature }), ...(source && { source }) }),
    stores: { dataset: ArtifactStore.of(split.training, { capacity: split.training.length }) },
    plan: [{ episodeType: "dataset", count: parsed.prompts, groupSize: parsed.groupSize }],
    ...(clusterColumn !== undefined && {
      clusters: {
        episodeType: "dataset",
        // The training rows' clusters only: a cluster whose rows are all held out has nothing to draw.
        names: [...new Set(split.training.map((row) => String(row[clusterColumn])))].sort(),
        of: (artifact) => String((artifact as JsonObject | null)?.[clusterColumn]),
      },
    }),
    ...(heldOut.length > 0 && {
      evaluate: (client, evaluateOptions) =>
        evaluateDataset(
          client,
          heldOut,
          // Strict accuracy needs the answer column the built-in reward reads.
          { prompt: promptOf, rubric, evaluateBy, maxTokens: parsed.maxTokens, samplingTemperature: parsed.temperature ?? 1, ...(format !== undefined && parsed.rewards === undefined && { strictlyCorrect: correctBy(format.extractor) }) },
          evaluateOptions,
        ),
      evaluatesPassAtK: true,
    }),
    summarise: (results) => summariseRewards(rubric, results),
  };
}

/** Where a pool worker makes the environment of `options` again, when they are JSON (no reward or prompt function). */
function jsonSource(options: DatasetEnvironmentOptions): EnvironmentSource | undefined {
  if (options.rewards !== undefined || typeof options.prompt === "function") return undefined;
  return { module: pathToFileURL(compiledSiblingFile(import.meta.url, "dataset-environment-from-json")).href, options: options as unknown as JsonValue };
}

/** Rows' prompts after the worked examples, as earlier user and assistant turns (after a row's own system message). */
function withExamples(promptOf: (item: JsonObject) => Messages, examples: readonly { user: string; assistant: string }[]): (item: JsonObject) => Messages {
  if (examples.length === 0) return promptOf;
  const turns: Messages = examples.flatMap(({ user, assistant }) => [
    { role: "user" as const, content: user },
    { role: "assistant" as const, content: assistant },
  ]);
  return (item) => {
    const messages = promptOf(item);
    const system = messages[0]?.role === "system" ? [messages[0]] : [];
    return [...system, ...turns, ...messages.slice(system.length)];
  };
}

/** Rows' prompts with `system` first, unless a row's messages open with their own. */
function withSystemPrompt(promptOf: (item: JsonObject) => Messages, system: string | undefined): (item: JsonObject) => Messages {
  if (system === undefined) return promptOf;
  return (item) => {
    const messages = promptOf(item);
    return messages[0]?.role === "system" ? messages : [{ role: "system", content: system }, ...messages];
  };
}

/**
 * Rows' prompts as messages, from a column (every row's checked by splitDataset) or the caller's function. A column
 * holds text (one user message) or, as TRL's conversational datasets do, the messages themselves (`[{role, content}, …]`).
 */
function promptFunction(prompt: string | ((item: JsonObject) => string | Messages)): (item: JsonObject) => Messages {
  const asMessages = (value: string | Messages): Messages => (typeof value === "string" ? [{ role: "user", content: value }] : value);
  if (typeof prompt === "function") return (item) => asMessages(prompt(item));
  return (item) => {
    const value = item[prompt];
    return Array.isArray(value) ? MessagesSchema.parse(value) : asMessages(String(value));
  };
}
