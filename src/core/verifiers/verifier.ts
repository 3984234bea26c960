import type { z } from "zod";
import type { JsonObject } from "../json.js";
import type { GenerateResult, Rewards } from "../schemas/generate-result.js";
import type { LogitBias } from "../schemas/constraint.js";
import type { Messages } from "../schemas/message.js";
import type { Rollout } from "../schemas/rollout.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";

export interface JudgeCallOptions {
  /** Defaults: greedy (temperature 0), at most 64 tokens. */
  sampler?: SamplerOverrides;
}

export interface StructuredJudgeOptions extends JudgeCallOptions {
  /** Steers the constrained judge (used only when its client constrains to the schema); see LogitBiasSchema. */
  logitBias?: LogitBias;
  /** Attempts in all, the first included (default 4). Resamples need a temperature above 0 to differ. */
  maxAttempts?: number;
  /** Turns the text into the value to validate (default: the first JSON object or array in it). */
  parse?: (text: string) => unknown;
}

/** A schema-validated judge answer, its text, and the attempts it took. */
export interface StructuredJudgeResponse<Value> {
  value: Value;
  text: string;
  attempts: number;
}

/** What a verifier may use while scoring. */
export interface ScoringContext {
  /** Results of the rollout's sub-episodes. */
  readonly children: readonly GenerateResult[];
  /**
   * Asks the judge model. Judge calls are not a Role's: they never become
   * Steps and never reach a TrainingBatch; the arena only counts them.
   */
  judge(messages: Messages, options?: JudgeCallOptions): Promise<string>;
  /** `judge` for a value of `schema`: constrained when the judge client supports it, validated, resampled. */
  judgeObject<Schema extends z.ZodType>(
    messages: Messages,
    schema: Schema,
    options?: StructuredJudgeOptions,
  ): Promise<StructuredJudgeResponse<z.output<Schema>>>;
  /**
   * `judgeObject` asked of the policy instead: present only when the judge is
   * a separate model (`--judge-model`, ArenaOptions.judgeClient), so a verifier
   * can compare the policy's own verdict with the judge's (a self-preference
   * figure). Counted as judge calls, seeded from a stream of its own; never Steps.
   */
  readonly policyJudgeObject?: ScoringContext["judgeObject"];
}

export interface VerifierOutput {
  /** Reward of every role that has Steps in the rollout. */
  rewards: Rewards;
  /** Anything worth recording next to the rewards (a verdict, a pass rate). */
  details?: JsonObject;
}

/** Scores a rollout. Throw to fail the rollout's scoring; the arena records why. */
export interface Verifier {
  score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput>;
}
