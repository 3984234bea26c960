import { sampleStructured } from "../../src/core/structured/sample-structured.js";
import { emptyStructuredOutputStats } from "../../src/core/structured/structured-output-stats.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import type { Messages } from "../../src/core/schemas/message.js";
import type { JudgeCallOptions, ScoringContext } from "../../src/core/verifiers/verifier.js";

export interface RecordedJudgeCall {
  /** A copy of the conversation as it was when the judge was called. */
  messages: Messages;
  options: JudgeCallOptions | undefined;
}

export interface FakeScoringContext extends ScoringContext {
  readonly calls: RecordedJudgeCall[];
}

/**
 * A ScoringContext whose judge answers `replies` in order and records each
 * call; a call beyond the script fails the test.
 */
export function fakeScoringContext(
  options: { replies?: readonly string[]; children?: readonly GenerateResult[] } = {},
): FakeScoringContext {
  const replies = options.replies ?? [];
  const calls: RecordedJudgeCall[] = [];
  return {
    children: options.children ?? [],
    calls,
    async judge(messages: Messages, callOptions?: JudgeCallOptions): Promise<string> {
      calls.push({ messages: structuredClone(messages), options: structuredClone(callOptions) });
      const reply = replies[calls.length - 1];
      if (reply === undefined) throw new Error(`fake judge: no scripted reply for call ${calls.length}`);
      return reply;
    },
    async judgeObject(messages, schema, callOptions = {}) {
      const { value, sample, attempts } = await sampleStructured({
        schema,
        maxAttempts: callOptions.maxAttempts ?? 4,
        sample: async () => ({ text: await this.judge(messages, callOptions) }),
        ...(callOptions.parse && { parse: callOptions.parse }),
        stats: emptyStructuredOutputStats(),
      });
      return { value, text: sample.text, attempts };
    },
  };
}
