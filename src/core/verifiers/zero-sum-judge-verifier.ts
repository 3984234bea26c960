import { z } from "zod";
import type { Messages } from "../schemas/message.js";
import type { Rollout } from "../schemas/rollout.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";
import { formatTranscript } from "./transcript.js";
import type { ScoringContext, Verifier, VerifierOutput } from "./verifier.js";

export interface ZeroSumJudgeVerifierOptions {
  roleA: string;
  roleB: string;
  /** Builds the judge's conversation. Default: the transcript and a request for `{"winner": "<role id>"}`. */
  prompt?: (rollout: Rollout) => Messages;
  /** Judge calls allowed before the rollout's scoring fails (StructuredOutputError). Default 3. */
  maxAttempts?: number;
  /** Sampler of every attempt. Default greedy (temperature 0), at most 64 tokens. */
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

/**
 * A competitive judge: the winner gets +1 and the loser −1, so the rewards
 * always sum to 0. The verdict comes through the strict JSON path
 * (`context.judgeObject`): constrained to the two role ids where the judge
 * client supports JSON schemas, validated and resampled otherwise.
 */
export class ZeroSumJudgeVerifier implements Verifier {
  private readonly schema: ReturnType<typeof zeroSumVerdictSchema>;

  constructor(private readonly options: ZeroSumJudgeVerifierOptions) {
    this.schema = zeroSumVerdictSchema(options.roleA, options.roleB);
  }

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const { roleA, roleB } = this.options;
    const messages = this.options.prompt?.(rollout) ?? [
      {
        role: "system",
        content: `You judge a contest between "${roleA}" and "${roleB}". Reply with JSON only: {"winner": "${roleA}"} or {"winner": "${roleB}"}.`,
      },
      { role: "user", content: formatTranscript(rollout) },
    ];
    const { value, attempts } = await context.judgeObject(messages, this.schema, {
      sampler: { temperature: 0, maxTokens: 64, ...this.options.sampler },
      maxAttempts: this.options.maxAttempts ?? 3,
    });
    const aWon = value.winner === roleA;
    return { rewards: { [roleA]: aWon ? 1 : -1, [roleB]: aWon ? -1 : 1 }, details: { verdict: value.winner, judgeAttempts: attempts } };
  }
}
