import { z } from "zod";
import { InvalidInputError } from "../errors/index.js";
import type { JsonObject } from "../json.js";
import type { Messages } from "../schemas/message.js";
import type { Rollout } from "../schemas/rollout.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";
import { formatTranscript } from "./transcript.js";
import type { ScoringContext, Verifier, VerifierOutput } from "./verifier.js";

/** `"both"`: every verdict asked in both presentation orders; `"one"`: asked once, `roleA` first. */
export const JudgeOrdersSchema = z.enum(["both", "one"]);
export type JudgeOrders = z.infer<typeof JudgeOrdersSchema>;

/**
 * How the judge names the two sides. `"positions"`: by where each is shown in
 * the ask, `"A"` the first and `"B"` the second, so the swapped ask calls the
 * other side `"A"`. `"roles"`: by their role ids, the same in every ask.
 */
export const JudgeLabelsSchema = z.enum(["positions", "roles"]);
export type JudgeLabels = z.infer<typeof JudgeLabelsSchema>;

/** The sides' labels under `labels: "positions"`: the side shown first, then the side shown second. */
const POSITION_LABELS = ["A", "B"] as const;

/** One ask of the verdict: the role ids in the order it presents them, and the label the judge is told for each (`labels[i]` names `order[i]`). */
interface JudgeAsk {
  order: readonly [string, string];
  labels: readonly [string, string];
}

export interface ZeroSumJudgeVerifierOptions {
  roleA: string;
  roleB: string;
  /**
   * Builds the judge's conversation for one ask; `order` names the two role ids
   * in the order this ask presents them (`[roleA, roleB]`, then `[roleB, roleA]`
   * for the swapped ask), and `labels` what the judge must call each in this
   * ask (`labels[0]` names `order[0]`): `["A", "B"]` in every ask under
   * `labels: "positions"`, `order` itself under `"roles"`. The reply format
   * must offer `labels`, the verdict's enum (a verdict is mapped back to the
   * role its label names in this ask), and the transcript should show them
   * (`formatTranscript(rollout, order, {[order[0]]: labels[0], [order[1]]:
   * labels[1]})`). A prompt that ignores `order` asks the same question twice
   * and measures nothing. Default: both labels, in order, in the instruction
   * and the reply format, and the transcript so named with each round's turns
   * in `order`. A prompt written for the first two arguments still
   * type-checks; under the default `"positions"` its reply format must offer
   * `A` and `B` (the verdict's enum), or the verifier be given `labels: "roles"`.
   */
  prompt?: (rollout: Rollout, order: readonly [string, string], labels: readonly [string, string]) => Messages;
  /**
   * How the judge names the sides (`JudgeLabels`). `"positions"` (default):
   * `"A"` for the side shown first and `"B"` for the second, the verdict's
   * enum `["A", "B"]`, each verdict mapped back to the role shown there (as
   * MT-Bench's pairwise judge names "Assistant A" and "Assistant B"). A judge
   * that favours a label then favours a position, which the swap (`orders:
   * "both"`) turns into a tie. `"roles"`: the role ids, the enum `[roleA,
   * roleB]`; a judge that favours one id wherever it is shown survives the
   * swap and pays that role every time (SmolLM2-135M-Instruct, judging its own
   * debates greedily, named `neg` in 128 of 128 asks).
   */
  labels?: JudgeLabels;
  /**
   * `"both"` (default): the verdict is asked in both presentation orders; one
   * that names a different winner when the sides are swapped is a tie, 0 to
   * each (its details say `positionConsistent: false`). Twice the judge calls.
   * `"one"`: asked once, with `roleA` first (a judge that favours the first
   * side it reads rewards `roleA`).
   */
  orders?: JudgeOrders;
  /**
   * When the judge is a separate model (`ScoringContext.policyJudgeObject`),
   * also ask the policy the same question(s) and record whether its verdict
   * agrees with the judge's (`judgeAgreement`, a self-preference figure). It
   * never changes the rewards. Default true; costs as many policy calls as
   * the judge's.
   */
  compareWithPolicy?: boolean;
  /** Judge calls allowed per ask before the rollout's scoring fails (StructuredOutputError). Default 3. */
  maxAttempts?: number;
  /** Sampler of every attempt. Default greedy (temperature 0), at most 64 tokens: both asks are then deterministic. */
  sampler?: SamplerOverrides;
}

/**
 * The verdict a zero-sum judge returns: `{"winner": labelA | labelB}`, the
 * labels the sides are named by (`"A"` and `"B"` by position, or the two role
 * ids). The enum becomes a grammar on a client with JSON-schema support, so
 * even a model that never learnt the format names one of the two sides.
 */
export function zeroSumVerdictSchema(labelA: string, labelB: string) {
  return z.strictObject({ winner: z.enum([labelA, labelB]) });
}

/** One judge's verdicts over the asked orders: the winner if every ask named the same one, otherwise a tie. */
interface CombinedVerdict {
  winner: string | undefined;
  verdicts: string[];
  attempts: number;
}

/**
 * A competitive judge: the winner gets +1 and the loser −1, so the rewards
 * always sum to 0. The verdict comes through the strict JSON path
 * (`context.judgeObject`): constrained to the two labels where the judge
 * client supports JSON schemas, validated and resampled otherwise. By
 * default the sides are named by position (`"A"` shown first, `"B"` second)
 * and the verdict is asked in both presentation orders (as MT-Bench judges
 * each pair); a verdict that follows the order or a label rather than the
 * content is a tie, so neither bias becomes a reward. `details.verdicts` are
 * role ids, each ask's label mapped back to the role it named.
 */
export class ZeroSumJudgeVerifier implements Verifier {
  private readonly schema: ReturnType<typeof zeroSumVerdictSchema>;
  private readonly asks: readonly JudgeAsk[];

  constructor(private readonly options: ZeroSumJudgeVerifierOptions) {
    const orders = JudgeOrdersSchema.safeParse(options.orders ?? "both");
    if (!orders.success) throw new InvalidInputError("orders", '"both" or "one"', options.orders);
    const labels = JudgeLabelsSchema.safeParse(options.labels ?? "positions");
    if (!labels.success) throw new InvalidInputError("labels", '"positions" or "roles"', options.labels);
    const { roleA, roleB } = options;
    const byPosition = labels.data === "positions";
    this.schema = byPosition ? zeroSumVerdictSchema(...POSITION_LABELS) : zeroSumVerdictSchema(roleA, roleB);
    const presented: ReadonlyArray<readonly [string, string]> = orders.data === "both" ? [[roleA, roleB], [roleB, roleA]] : [[roleA, roleB]];
    this.asks = presented.map((order) => ({ order, labels: byPosition ? POSITION_LABELS : order }));
  }

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const { roleA, roleB } = this.options;
    const judged = await this.verdict(rollout, context.judgeObject.bind(context));
    const rewards = judged.winner === undefined ? { [roleA]: 0, [roleB]: 0 } : { [roleA]: judged.winner === roleA ? 1 : -1, [roleB]: judged.winner === roleB ? 1 : -1 };
    const details: JsonObject = { verdict: judged.winner ?? "tie", judgeAttempts: judged.attempts };
    if (this.asks.length > 1) Object.assign(details, { verdicts: judged.verdicts, positionConsistent: judged.winner !== undefined });
    if (context.policyJudgeObject && (this.options.compareWithPolicy ?? true)) {
      const policy = await this.verdict(rollout, context.policyJudgeObject.bind(context));
      Object.assign(details, { policyVerdict: policy.winner ?? "tie", judgeAgreement: policy.winner === judged.winner });
    }
    return { rewards, details };
  }

  /** Asks `judge` in every order, one after another (so a seeded judge's draws keep their order); each verdict the role its label named in that ask. */
  private async verdict(rollout: Rollout, judge: ScoringContext["judgeObject"]): Promise<CombinedVerdict> {
    const verdicts: string[] = [];
    let attempts = 0;
    for (const { order, labels } of this.asks) {
      const { value, attempts: used } = await judge(this.prompt(rollout, order, labels), this.schema, {
        sampler: { temperature: 0, maxTokens: 64, ...this.options.sampler },
        maxAttempts: this.options.maxAttempts ?? 3,
      });
      // The schema's enum is these two labels, so the index is 0 or 1.
      verdicts.push(order[labels.indexOf(value.winner) as 0 | 1]);
      attempts += used;
    }
    return { winner: verdicts.every((verdict) => verdict === verdicts[0]) ? verdicts[0] : undefined, verdicts, attempts };
  }

  private prompt(rollout: Rollout, order: readonly [string, string], labels: readonly [string, string]): Messages {
    if (this.options.prompt) return this.options.prompt(rollout, order, labels);
    const [first, second] = labels;
    return [
      {
        role: "system",
        content: `You judge a contest between "${first}" and "${second}". Reply with JSON only: {"winner": "${first}"} or {"winner": "${second}"}.`,
      },
      { role: "user", content: formatTranscript(rollout, order, { [order[0]]: first, [order[1]]: second }) },
    ];
  }
}
