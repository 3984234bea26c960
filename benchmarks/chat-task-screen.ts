// The chat-task screen (issue 37): each candidate of chat-tasks/chat-task-candidates.ts asked of a chat model in its
// own chat template (no system prompt: the template's default) after the candidate's two worked examples, read by the
// tolerant extractor, on held-out rows.
// First a greedy pass at a 256-token cap over `--probe` rows for the base's median answer length; the token budget
// is then 3× that median, rounded up to a multiple of 16; at that budget, greedy accuracy, strict-format
// (`Answer: …`) accuracy and the truncated share over `--items` rows, and pass@8 over the first `--sampled` of them,
// sampled at `--temperature` (default 1; the rollouts' temperature).
// A candidate qualifies with greedy accuracy in [10%, 50%], pass@8 ≥ 2× greedy and at most 5% truncated.
//
//   npm run build && node dist/benchmarks/chat-task-screen.js --model FILE [--items 200] [--sampled 64] [--probe 64] [--threads 2] [--temperature 1] [--tasks a,b]   (prints JSON lines)
import { pathToFileURL } from "node:url";
import { InvalidInputError } from "../src/core/errors/index.js";
import type { InferenceClient } from "../src/core/inference-client.js";
import { LlamaInferenceClient } from "../src/inference/llama/llama-inference-client.js";
import { createDatasetEnvironment } from "../src/tasks/dataset/dataset-environment.js";
import { chatTaskCandidates, type ChatTaskCandidate } from "./chat-tasks/chat-task-candidates.js";
import { integerFlag } from "./integer-flag.js";

export interface ChatTaskScreenRow {
  task: string;
  description: string;
  heldOutRows: number;
  /** The base's median greedy answer length at a 256-token cap, over the probe rows. */
  medianAnswerTokens: number;
  budget: number;
  greedy: { accuracy: number; strictAccuracy: number; truncated: number; n: number };
  passAt8: { value: number; n: number; temperature: number };
  qualifies: boolean;
}

const PROBE_CAP = 256;

async function evaluate(client: InferenceClient, candidate: ChatTaskCandidate, maxTokens: number, items: number, temperature: number, samples = 0) {
  const environment = await createDatasetEnvironment({
    data: candidate.rows,
    prompt: "question",
    fewShot: candidate.fewShot,
    heldOut: { column: "split", value: "test" },
    extractor: "tolerant",
    format: { extractor: "answer-line" },
    maxTokens,
    temperature,
    evaluateItems: items,
    name: candidate.name,
  });
  const evaluation = await environment.evaluate?.(client, samples > 0 ? { samples, seed: 0 } : {});
  if (evaluation === undefined) throw new Error(`${candidate.name} has no held-out rows`);
  return evaluation;
}

/** One candidate screened. */
export async function screenCandidate(client: InferenceClient, candidate: ChatTaskCandidate, options: { items: number; sampled: number; probe: number; temperature: number }): Promise<ChatTaskScreenRow> {
  const probe = await evaluate(client, candidate, PROBE_CAP, options.probe, options.temperature);
  const medianAnswerTokens = probe.figures?.["medianCompletionTokens"] ?? 0;
  const budget = Math.max(16, Math.ceil((3 * medianAnswerTokens) / 16) * 16);
  const greedy = await evaluate(client, candidate, budget, options.items, options.temperature);
  const sampled = await evaluate(client, candidate, budget, options.sampled, options.temperature, 8);
  const accuracy = greedy.heldOutAccuracy;
  const truncated = greedy.figures?.["truncated"] ?? 0;
  const passAt8 = sampled.passAtK?.value ?? 0;
  return {
    task: candidate.name,
    description: candidate.description,
    heldOutRows: candidate.rows.filter((row) => row["split"] === "test").length,
    medianAnswerTokens,
    budget,
    greedy: { accuracy, strictAccuracy: greedy.figures?.["strictAccuracy"] ?? 0, truncated, n: greedy.n },
    passAt8: { value: passAt8, n: sampled.n, temperature: options.temperature },
    qualifies: accuracy >= 0.1 && accuracy <= 0.5 && passAt8 >= 2 * accuracy && truncated <= 0.05,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf("--model");
  const modelPath = at === -1 ? undefined : process.argv[at + 1];
  if (modelPath === undefined) throw new InvalidInputError("--model", "the chat model's GGUF file (--model FILE)");
  const temperatureAt = process.argv.indexOf("--temperature");
  const temperature = temperatureAt === -1 ? 1 : Number(process.argv[temperatureAt + 1]);
  if (!(temperature > 0)) throw new InvalidInputError("--temperature", "a sampling temperature > 0", process.argv[temperatureAt + 1]);
  const options = { items: integerFlag("--items", 200), sampled: integerFlag("--sampled", 64), probe: integerFlag("--probe", 64), temperature };
  const client = await LlamaInferenceClient.create({ modelPath, sequences: 16, threads: integerFlag("--threads", 2) });
  try {
    const named = process.argv.indexOf("--tasks");
    const tasks = named === -1 ? undefined : (process.argv[named + 1] ?? "").split(",");
    const candidates = chatTaskCandidates().filter((candidate) => tasks === undefined || tasks.includes(candidate.name));
    if (candidates.length === 0) throw new InvalidInputError("--tasks", `comma-separated names of ${chatTaskCandidates().map((candidate) => candidate.name).join(", ")}`, process.argv[named + 1]);
    for (const candidate of candidates) process.stdout.write(`${JSON.stringify(await screenCandidate(client, candidate, options))}\n`);
  } finally {
    await client.dispose();
  }
}
