import { JudgeOutputError, InvalidInputError } from "../errors/index.js";
import type { Rewards } from "../schemas/generate-result.js";
import type { Messages } from "../schemas/message.js";
import type { Rollout } from "../schemas/rollout.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";
import type { ScoringContext, Verifier, VerifierOutput } from "./verifier.js";

/** A judge reply either parses into rewards or says why it did not. */
export type JudgeParse = { rewards: Rewards; verdict: string } | { error: string };

export interface LLMJudgeVerifierOptions {
  /** Builds the judge's conversation from the rollout. */
  prompt: (rollout: Rollout) => Messages;
  /** Parses the judge's reply; parsing is kept apart from scoring so it can be tested alone. */
  parse: (reply: string, rollout: Rollout) => JudgeParse;
  /** Judge calls allowed before the rollout's scoring fails. Default 3. */
  maxAttempts?: number;
  /** Sampler of the first attempt. Default greedy. */
  sampler?: SamplerOverrides;
  /** Temperature of the retries, so a retry can say something different. Default 0.7. */
  retryTemperature?: number;
}

/**
 * Scores with a language model that is not a Role. A reply that does not parse
 * is answered with the reason and asked again, up to `maxAttempts`; then the
 * verifier throws JudgeOutputError and the arena records the rollout as failed
 * — it is never scored 0 by default.
 */
export class LLMJudgeVerifier implements Verifier {
  private readonly maxAttempts: number;

  constructor(private readonly options: LLMJudgeVerifierOptions) {
    this.maxAttempts = options.maxAttempts ?? 3;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new InvalidInputError("maxAttempts", "an integer ≥ 1", options.maxAttempts);
    }
  }

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const conversation: Messages = [...this.options.prompt(rollout)];
    let lastReply = "";
    let lastError = "";
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const sampler: SamplerOverrides =
        attempt === 1
          ? { temperature: 0, maxTokens: 64, ...this.options.sampler }
          : { maxTokens: 64, ...this.options.sampler, temperature: this.options.retryTemperature ?? 0.7 };
      lastReply = await context.judge(conversation, { sampler });
      const parsed = this.options.parse(lastReply, rollout);
      if ("rewards" in parsed) {
        return { rewards: parsed.rewards, details: { verdict: parsed.verdict, judgeAttempts: attempt } };
      }
      lastError = parsed.error;
      conversation.push(
        { role: "assistant", content: lastReply },
        { role: "user", content: `That reply could not be used: ${parsed.error}. Answer again in the required format.` },
      );
    }
    throw new JudgeOutputError(this.maxAttempts, lastReply, lastError);
  }
}
