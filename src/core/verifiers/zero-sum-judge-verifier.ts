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

export interface ZeroSumJudgeVerifierOptions {
  roleA: string;
  roleB: string;
  /**
   * Builds the judge's conversation for one ask; `order` names the two role ids
   * in the order this ask presents them (`[roleA, roleB]`, then `[roleB, roleA]`
   * for the swapped ask). A prompt that ignores `order` asks the same question
   * twice and measures nothing. Default: both ids, in `order`, in the
   * instruction and the reply format, and the transcript with each round's
   * turns in `order` (`formatTranscript(rollout, order)`).
   */
  prompt?: (rollout: Rollout, order: readonly [string, string]) => Messages;
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
 * The verdict a zero-sum judge returns: `{"winner": roleA | roleB}`. The enum
 * becomes a grammar on a client with JSON-schema support, so even a model
 * that never learnt the format names one of the two roles.
 */
export function zeroSumVerdictSchema(roleA: string, roleB: string) {
  return z.strictObject({ winner: z.enum([roleA, roleB]) });
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
 * (`context.judgeObject`): constrained to the two role ids where the judge
 * client supports JSON schemas, validated and resampled otherwise. By
 * default it is asked in both presentation orders (as MT-Bench judges each
 * pair), and a verdict that follows the order rather than the content is a
 * tie, so a judge's position bias never becomes a reward.
 */
export class ZeroSumJudgeVerifier implements Verifier {
  private readonly schema: ReturnType<typeof zeroSumVerdictSchema>;
  private readonly orders: ReadonlyArray<readonly [string, string]>;

  constructor(private readonly options: ZeroSumJudgeVerifierOptions) {
    this.schema = zeroSumVerdictSchema(options.roleA, options.roleB);
    const orders = JudgeOrdersSchema.safeParse(options.orders ?? "both");
    if (!orders.success) throw new InvalidInputError("orders", '"both" or "one"', options.orders);
    const { roleA, roleB } = options;
    this.orders = orders.data === "both" ? [[roleA, roleB], [roleB, roleA]] : [[roleA, roleB]];
  }

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const { roleA, roleB } = this.options;
    const judged = await this.verdict(rollout, context.judgeObject.bind(context));
    const rewards = judged.winner === undefined ? { [roleA]: 0, [roleB]: 0 } : { [roleA]: judged.winner === roleA ? 1 : -1, [roleB]: judged.winner === roleB ? 1 : -1 };
    const details: JsonObject = { verdict: judged.winner ?? "tie", judgeAttempts: judged.attempts };
    if (this.orders.length > 1) Object.assign(details, { verdicts: judged.verdicts, positionConsistent: judged.winner !== undefined });
    if (context.policyJudgeObject && (this.options.compareWithPolicy ?? true)) {
      const policy = await this.verdict(rollout, context.policyJudgeObject.bind(context));
      Object.assign(details, { policyVerdict: policy.winner ?? "tie", judgeAgreement: policy.winner === judged.winner });
    }
    return { rewards, details };
  }

  /** Asks `ask` in every order, one after another (so a seeded judge's draws keep their order). */
  private async verdict(rollout: Rollout, ask: ScoringContext["judgeObject"]): Promise<CombinedVerdict> {
    const verdicts: string[] = [];
    let attempts = 0;
    for (const order of this.orders) {
      const { value, attempts: used } = await ask(this.prompt(rollout, order), this.schema, {
        sampler: { temperature: 0, maxTokens: 64, ...this.options.sampler },
        maxAttempts: this.options.maxAttempts ?? 3,
      });
      verdicts.push(value.winner);
      attempts += used;
    }
    return { winner: verdicts.every((verdict) => verdict === verdicts[0]) ? verdicts[0] : undefined, verdicts, attempts };
  }

  private prompt(rollout: Rollout, order: readonly [string, string]): Messages {
    if (this.options.prompt) return this.options.prompt(rollout, order);
    const [first, second] = order;
    return [
      {
        role: "system",
        content: `You judge a contest between "${first}" and "${second}". Reply with JSON only: {"winner": "${first}"} or {"winner": "${second}"}.`,
      },
      { role: "user", content: formatTranscript(rollout, order) },
    ];
  }
}
