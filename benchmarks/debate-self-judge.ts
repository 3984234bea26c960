// Debate judged by itself (issue 38): a chat model debates the CLI's motions (DEBATE_TOPICS, in turn) and judges
// every debate itself — the judge is the policy's own client, a Verifier, never a Role — greedily, each verdict
// asked with the sides in both orders (judgeOrders "both") and named by position (judgeLabels "positions": "A" the side
// shown first, "B" the other; the recorded verdicts are the roles those labels named). Two arms on the same motions and
// seeds:
//   seat:   one policy plays aff and neg; the share of asks naming aff is the seat bias (the same weights on both
//           sides, so whatever the judge prefers is the seat or the motion's side, not the debater);
//   frozen: aff is the policy, neg the frozen opponent (`opponent: "base"` — the same weights in a second engine,
//           as at step 0 of a training run — or a LoRA adapter / GGUF path); the share naming aff is self-preference.
// Each arm reports how many verdicts survive the swap, the share naming the side shown first (the share answering "A":
// a position bias, or a label bias, which the position labels make the same thing; either is tied by the swap), the
// verdicts that never validated (unparsable) and the invalid attempts resampled. Under role-id labels a judge that
// always named "neg" survived every swap: SmolLM2-135M-Instruct did in 128 of 128 asks, paying neg every debate.
//
//   npm run build && node dist/benchmarks/debate-self-judge.js --model FILE [--items 64] [--threads 2] [--seed 1] [--opponent base|FILE]   (prints JSON)
import { pathToFileURL } from "node:url";
import { Arena } from "../src/arena/arena.js";
import { InvalidInputError } from "../src/core/errors/index.js";
import type { InferenceClient } from "../src/core/inference-client.js";
import type { GenerateResult } from "../src/core/schemas/generate-result.js";
import { LlamaInferenceClient } from "../src/inference/llama/llama-inference-client.js";
import { DEBATE_TOPICS, DebateEpisode, type DebateEpisodeOptions } from "../src/tasks/debate/debate-episode.js";
import { openFrozenPolicies } from "../src/training/loop/open-frozen-policies.js";
import { integerFlag } from "./integer-flag.js";

/** The debate every arm plays: one round (the environment's default), 64 tokens a turn, a greedy judge asked in both orders, the sides named by position. */
export const SELF_JUDGE_DEBATE: DebateEpisodeOptions = { rounds: 1, maxTokens: 64, judgeTemperature: 0, judgeOrders: "both", judgeLabels: "positions" };
/** The debaters' temperature: SmolLM2 at 1 over its whole vocabulary mostly rambles (RESULTS, the chat-task screen). */
export const DEBATER_TEMPERATURE = 0.7;
/** Tokens of context a sequence gets: a one-round debate's judge prompt (the motion, the stances, two 64-token turns) is about 220. */
const CONTEXT_SIZE = 512;

/** The judge's verdicts over one arm's debates. */
export interface DebateJudgingFigures {
  debates: number;
  /** Debates with a verdict from each order. */
  judged: number;
  /** Debates whose judge gave no valid verdict in `judgeAttempts` (StructuredOutputError while scoring). */
  unparsable: number;
  /** Debates that failed otherwise (counted, never scored). */
  failed: number;
  /** Verdicts read: two a judged debate. */
  asks: number;
  /** Judge outputs that did not validate: each resampled, or the last of an unparsable ask. */
  invalidAttempts: number;
  /** Share of judged debates whose two verdicts name the same winner; null when none was judged. */
  survivedSwap: number | null;
  /** Share of the asks naming `aff`; over both orders, each side shown first and called `A` once, so the pull of a position or a label cancels. */
  affShare: number | null;
  /** Share of the asks naming the side shown first (`aff` in the first ask, `neg` in the swapped one): the share answering `A`: 1 or 0 for a judge that always names one position or label, exactly 0.5 when every verdict survives the swap. */
  firstShownShare: number | null;
  /** Combined verdicts: a verdict that flipped with the order is a tie. */
  outcomes: { aff: number; neg: number; tie: number };
}

/** The figures of one arm's results, from each debate's recorded verdicts (`scoreDetails.verdicts`, role ids, asked aff first, then neg first). */
export function debateJudgingFigures(results: readonly GenerateResult[]): DebateJudgingFigures {
  const judged = results.filter((result) => result.outcome.status === "scored");
  const unparsable = results.filter((result) => result.outcome.status === "failed" && result.outcome.stage === "score" && result.outcome.error.name === "StructuredOutputError");
  const pairs = judged.map((result) => result.scoreDetails.verdicts as [string, string]);
  const asks = pairs.flat();
  const share = (count: number, of: number) => (of === 0 ? null : count / of);
  const outcomes = { aff: 0, neg: 0, tie: 0 };
  for (const [first, swapped] of pairs) outcomes[first === swapped ? (first as "aff" | "neg") : "tie"]++;
  return {
    debates: results.length,
    judged: judged.length,
    unparsable: unparsable.length,
    failed: results.length - judged.length - unparsable.length,
    asks: asks.length,
    invalidAttempts: results.reduce((total, result) => total + result.structuredOutputs.judge.resamples + result.structuredOutputs.judge.failures, 0),
    survivedSwap: share(outcomes.aff + outcomes.neg, judged.length),
    affShare: share(asks.filter((verdict) => verdict === "aff").length, asks.length),
    firstShownShare: share(pairs.filter(([first]) => first === "aff").length + pairs.filter(([, swapped]) => swapped === "neg").length, asks.length),
    outcomes,
  };
}

export interface DebateArmOptions {
  /** Debates, the motions taken in turn. */
  debates: number;
  seed: number;
  /** Sequences decoded together: the debates in flight. */
  concurrency: number;
  /** The frozen opponent's client for `neg`; absent, the policy plays both sides (the seat arm). */
  opponent?: InferenceClient;
}

/** One arm's debates, judged by `policy` itself, and their figures. */
export async function debateArm(policy: InferenceClient, options: DebateArmOptions): Promise<{ results: GenerateResult[]; figures: DebateJudgingFigures }> {
  const arena = new Arena({
    client: policy,
    ...(options.opponent && { roleClients: { neg: options.opponent } }),
    seed: options.seed,
    concurrency: options.concurrency,
    samplerDefaults: { temperature: DEBATER_TEMPERATURE },
  }).register(new DebateEpisode(SELF_JUDGE_DEBATE));
  const requests = Array.from({ length: options.debates }, (_, index) => ({ episodeType: "debate", artifact: { topic: DEBATE_TOPICS[index % DEBATE_TOPICS.length] as string } }));
  try {
    const results = await arena.generateRollouts(requests);
    return { results, figures: debateJudgingFigures(results) };
  } finally {
    await arena.close();
  }
}

export interface DebateSelfJudgeResult {
  benchmark: "debate-self-judge";
  model: string;
  opponent: string;
  debates: number;
  seed: number;
  threads: number;
  debate: DebateEpisodeOptions;
  debaterTemperature: number;
  seat: DebateJudgingFigures;
  frozen: DebateJudgingFigures;
  /** The seat arm's affShare: what the judge gives `aff` when the same weights play both sides. */
  seatBias: number | null;
  /** The frozen arm's affShare: how often the judge sides with its own policy against the frozen opponent. */
  selfPreference: number | null;
  /** selfPreference − seatBias: the preference for its own weights beyond the seat's. */
  selfPreferenceOverSeatBias: number | null;
  seconds: number;
}

export async function measureDebateSelfJudge(options: { modelPath: string; opponent: string; debates: number; seed: number; threads: number }): Promise<DebateSelfJudgeResult> {
  const started = performance.now();
  const sequences = Math.min(8, options.debates);
  const policy = await LlamaInferenceClient.create({ modelPath: options.modelPath, sequences, contextSize: CONTEXT_SIZE, threads: options.threads });
  try {
    const frozen = await openFrozenPolicies({ neg: options.opponent }, options.modelPath, sequences, CONTEXT_SIZE, "auto", options.threads);
    try {
      const arm = { debates: options.debates, seed: options.seed, concurrency: sequences };
      const seat = (await debateArm(policy, arm)).figures;
      const frozenArm = (await debateArm(policy, { ...arm, opponent: frozen.roleClients["neg"] as InferenceClient })).figures;
      return {
        benchmark: "debate-self-judge",
        model: options.modelPath,
        opponent: options.opponent,
        debates: options.debates,
        seed: options.seed,
        threads: options.threads,
        debate: SELF_JUDGE_DEBATE,
        debaterTemperature: DEBATER_TEMPERATURE,
        seat,
        frozen: frozenArm,
        seatBias: seat.affShare,
        selfPreference: frozenArm.affShare,
        selfPreferenceOverSeatBias: seat.affShare === null || frozenArm.affShare === null ? null : frozenArm.affShare - seat.affShare,
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      await frozen.dispose();
    }
  } finally {
    await policy.dispose();
  }
}

function textFlag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const modelPath = textFlag("--model");
  if (modelPath === undefined) throw new InvalidInputError("--model", "the chat model's GGUF file (--model FILE)");
  const options = { modelPath, opponent: textFlag("--opponent") ?? "base", debates: integerFlag("--items", 64), seed: integerFlag("--seed", 1), threads: integerFlag("--threads", 2) };
  console.log(JSON.stringify(await measureDebateSelfJudge(options)));
}
