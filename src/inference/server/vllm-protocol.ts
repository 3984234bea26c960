import { z } from "zod";
import type { FinishReason } from "../../core/schemas/step.js";
import type { ServerCompletion, ServerCompletionRequest, ServerProtocol } from "./server-protocol.js";

// vLLM spells -inf as -9999.0 in its logprobs.
const LogprobSchema = z.number().nullable();
const ChoiceSchema = z.object({
  finish_reason: z.string().nullable(),
  logprobs: z.object({
    tokens: z.array(z.string()),
    token_logprobs: z.array(LogprobSchema),
    top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullable().optional(),
  }),
});
const CompletionSchema = z.object({ model: z.string(), choices: z.array(ChoiceSchema).min(1) });

/** With `return_tokens_as_token_ids`, vLLM names each token `token_id:<id>`. */
function tokenId(token: string): number | undefined {
  const match = /^token_id:(\d+)$/.exec(token);
  return match === null ? undefined : Number(match[1]);
}

function settings(request: ServerCompletionRequest): Record<string, unknown> {
  const { sampler } = request;
  return {
    model: request.model,
    prompt: request.promptTokenIds,
    temperature: sampler.temperature,
    // vLLM disables top-k with 0 (older releases: -1, which newer ones still accept).
    top_k: sampler.topK === 0 ? -1 : sampler.topK,
    top_p: sampler.topP,
    min_p: sampler.minP,
    seed: sampler.seed,
    repetition_penalty: 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    return_tokens_as_token_ids: true,
    skip_special_tokens: false,
    stream: false,
    ...(request.grammar !== undefined && { structured_outputs: { grammar: request.grammar } }),
    ...(request.logitBias !== undefined && request.logitBias.length > 0 && { logit_bias: Object.fromEntries(request.logitBias) }),
  };
}

const FINISH_REASONS: Record<string, FinishReason> = { stop: "stop", length: "length", abort: "abort" };

/**
 * vLLM's OpenAI-compatible `/v1/completions`: prompts as token ids, token ids
 * back with `return_tokens_as_token_ids`, the sampled token's logprob with
 * `logprobs: 1`. vLLM V1 reports raw logprobs (before temperature and
 * filters) unless started with `--logprobs-mode processed_logprobs`; the client
 * checks which when it connects.
 */
export const vllmProtocol: ServerProtocol = {
  completionPath: "/v1/completions",
  completionBody: (request) => ({ ...settings(request), max_tokens: request.maxTokens, logprobs: 1, stop: request.sampler.stop }),
  readCompletion(response): ServerCompletion | string {
    const parsed = CompletionSchema.safeParse(response);
    if (!parsed.success) return `a /v1/completions answer without choices[0].logprobs (${parsed.error.issues[0]?.message ?? "malformed"}); is it vLLM?`;
    const choice = parsed.data.choices[0] as z.infer<typeof ChoiceSchema>;
    const tokenIds: number[] = [];
    for (const token of choice.logprobs.tokens) {
      const id = tokenId(token);
      if (id === undefined) return `logprobs.tokens holds ${JSON.stringify(token)}, not token_id:<id> (the server ignored return_tokens_as_token_ids; vLLM 0.5.5 or later is needed)`;
      tokenIds.push(id);
    }
    const logprobs = choice.logprobs.token_logprobs.map((logprob) => (logprob === null ? undefined : Math.min(logprob, 0)));
    return { tokenIds, logprobs, finishReason: FINISH_REASONS[choice.finish_reason ?? "stop"] ?? "stop", model: parsed.data.model };
  },
  topLogprob: {
    body: (request) => ({ ...settings(request), max_tokens: 1, logprobs: 1, stop: [] }),
    read(response) {
      const parsed = CompletionSchema.safeParse(response);
      const top = parsed.success ? parsed.data.choices[0]?.logprobs.top_logprobs?.[0] : undefined;
      if (top === undefined || top === null) return undefined;
      return Math.max(...Object.values(top));
    },
  },
  sampledLogprobsAdvice: "start vLLM with --logprobs-mode processed_logprobs (V1 returns raw logprobs, before temperature, by default)",
};
