import type { Messages } from "../schemas/message.js";
import type { Rollout } from "../schemas/rollout.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";
import { LLMJudgeVerifier, type JudgeParse } from "./llm-judge-verifier.js";
import { formatTranscript } from "./transcript.js";
import type { ScoringContext, Verifier, VerifierOutput } from "./verifier.js";

export interface ZeroSumJudgeVerifierOptions {
  roleA: string;
  roleB: string;
  /** Builds the judge's conversation. Default: the transcript and a request for `WINNER: <role id>`. */
  prompt?: (rollout: Rollout) => Messages;
  maxAttempts?: number;
  sampler?: SamplerOverrides;
}

/** Reads `WINNER: <id>` from a judge reply; anything else is a parse error naming the allowed ids. */
export function parseWinner(reply: string, roleA: string, roleB: string): JudgeParse {
  const match = /winner\s*[:=]\s*\**\s*([A-Za-z0-9_.-]+)/i.exec(reply);
  // Role ids may contain '.', so a sentence's final period is stripped rather than excluded by the pattern.
  const named = match?.[1]?.replace(/[.]+$/, "").toLowerCase();
  if (named === roleA.toLowerCase()) return { rewards: { [roleA]: 1, [roleB]: -1 }, verdict: roleA };
  if (named === roleB.toLowerCase()) return { rewards: { [roleA]: -1, [roleB]: 1 }, verdict: roleB };
  return { error: `expected "WINNER: ${roleA}" or "WINNER: ${roleB}"` };
}

/** A competitive judge: the winner gets +1 and the loser −1, so the rewards always sum to 0. */
export class ZeroSumJudgeVerifier implements Verifier {
  private readonly judge: LLMJudgeVerifier;

  constructor(options: ZeroSumJudgeVerifierOptions) {
    const { roleA, roleB } = options;
    this.judge = new LLMJudgeVerifier({
      prompt:
        options.prompt ??
        ((rollout) => [
          {
            role: "system",
            content: `You judge a contest between "${roleA}" and "${roleB}". Reply with exactly one line: WINNER: ${roleA} or WINNER: ${roleB}.`,
          },
          { role: "user", content: formatTranscript(rollout) },
        ]),
      parse: (reply) => parseWinner(reply, roleA, roleB),
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
      ...(options.sampler === undefined ? {} : { sampler: options.sampler }),
    });
  }

  score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    return this.judge.score(rollout, context);
  }
}
