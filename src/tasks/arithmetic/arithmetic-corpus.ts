import type { RandomStream } from "../../core/random/random-stream.js";
import type { Messages } from "../../core/schemas/message.js";
import { proposerMessages, solverMessages } from "./arithmetic-prompts.js";
import { clusterNames, problemsOfSplit, sampleProblem } from "./arithmetic-task.js";
import { bytesToTokenIds } from "../../inference/byte-tokens.js";
import { END_OF_SEQUENCE_TOKEN_ID } from "../../inference/model-files/byte-vocabulary.js";
import type { ScoredSequence } from "../../training/tfjs/policy/pack-sequences.js";

/** Share of pretraining examples that teach the solver; the rest teach the proposer. */
const SOLVER_SHARE = 0.8;

/**
 * The plain prompt format of project-made byte models, as the inference
 * client writes it (`role: content` lines, then `assistant:`), in byte tokens.
 */
export function plainPromptTokens(messages: Messages): Int32Array {
  return bytesToTokenIds(`${messages.map((message) => `${message.role}: ${message.content}\n`).join("")}assistant:`);
}

/** A completion in byte tokens, ended by the end-of-sequence token the policy must learn to sample. */
export function completionTokens(text: string): Int32Array {
  const bytes = bytesToTokenIds(text);
  const tokens = new Int32Array(bytes.length + 1);
  tokens.set(bytes);
  tokens[bytes.length] = END_OF_SEQUENCE_TOKEN_ID;
  return tokens;
}

/**
 * One supervised example of the arithmetic task, never from the held-out
 * split: most teach the solver (`23+45=` → `68`), the rest the proposer (a
 * cluster name → a problem of that cluster).
 */
export function arithmeticExample(random: RandomStream): ScoredSequence {
  if (random.next() < SOLVER_SHARE) {
    const problems = trainingProblems();
    const problem = problems[Math.floor(random.next() * problems.length)] as (typeof problems)[number];
    return { promptTokenIds: plainPromptTokens(solverMessages(problem.text)), completionTokenIds: completionTokens(String(problem.answer)), temperature: 1 };
  }
  const clusters = clusterNames();
  const cluster = clusters[Math.floor(random.next() * clusters.length)] as string;
  const problem = sampleProblem(cluster, random);
  return { promptTokenIds: plainPromptTokens(proposerMessages(cluster)), completionTokenIds: completionTokens(problem.text), temperature: 1 };
}

let cachedTraining: ReturnType<typeof problemsOfSplit> | undefined;
function trainingProblems(): ReturnType<typeof problemsOfSplit> {
  cachedTraining ??= problemsOfSplit("train");
  return cachedTraining;
}
