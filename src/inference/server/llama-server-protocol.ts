import { z } from "zod";
import type { FinishReason } from "../../core/schemas/step.js";
import type { ServerCompletion, ServerCompletionRequest, ServerProtocol } from "./server-protocol.js";

/**
 * The sampler chain every request names: only the filters a Step records, in
 * llama.cpp's order, then the draw. llama-server's default chain adds
 * penalties, DRY, typical-p and XTC, and its default values truncate (top-k 40,
 * top-p 0.95, min-p 0.05); with this chain and the sampler's own values
 * (top-k 0, top-p 1, min-p 0 for training) the reported probability is the
 * full temperature-scaled distribution's.
 */
const SAMPLER_CHAIN = ["top_k", "top_p", "min_p", "temperature"];

const ProbabilitySchema = z.object({ id: z.number().int(), prob: z.number() });
const CompletionSchema = z.object({
  tokens: z.array(z.number().int()),
  completion_probabilities: z.array(ProbabilitySchema.extend({ top_probs: z.array(ProbabilitySchema).optional() })).optional(),
  stop_type: z.string(),
  model: z.string(),
});
const NextTokenSchema = z.object({
  completion_probabilities: z.array(z.object({ top_probs: z.array(ProbabilitySchema) })).min(1),
});

function settings(request: ServerCompletionRequest): Record<string, unknown> {
  const { sampler } = request;
  return {
    model: request.model,
    prompt: request.promptTokenIds,
    temperature: sampler.temperature,
    top_k: sampler.topK,
    top_p: sampler.topP,
    min_p: sampler.minP,
    seed: sampler.seed,
    samplers: SAMPLER_CHAIN,
    // The chain above leaves these out; set anyway so a server that ignores `samplers` still draws from the same distribution.
    typical_p: 1,
    repeat_penalty: 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    dry_multiplier: 0,
    xtc_probability: 0,
    dynatemp_range: 0,
    mirostat: 0,
    min_keep: 0,
    // Probabilities after the chain: the temperature-scaled distribution the token was drawn from.
    post_sampling_probs: true,
    return_tokens: true,
    cache_prompt: true,
    stream: false,
    ...(request.grammar !== undefined && { grammar: request.grammar }),
    ...(request.logitBias !== undefined && request.logitBias.length > 0 && { logit_bias: request.logitBias.map(([id, bias]) => [id, bias]) }),
  };
}

const ALL_CANDIDATES = 2 ** 31 - 1;

const FINISH_REASONS: Record<string, FinishReason> = { eos: "stop", word: "stop", limit: "length" };

export const llamaServerProtocol: ServerProtocol = {
  completionPath: "/completion",
  topLogprob: {
    body: (request) => ({ ...settings(request), n_predict: 1, n_probs: 1, stop: [] }),
    read: (response) => {
      const parsed = NextTokenSchema.safeParse(response);
      const top = parsed.success ? parsed.data.completion_probabilities[0]?.top_probs[0] : undefined;
      return top === undefined ? undefined : Math.log(top.prob);
    },
  },
  sampledLogprobsAdvice: "use a llama-server that honours post_sampling_probs (llama.cpp b4000 or later, e.g. the one selfplay builds from node-llama-cpp's bundled source)",
  completionBody: (request) => ({ ...settings(request), n_predict: request.maxTokens, n_probs: 1, stop: request.sampler.stop }),
  readCompletion(response): ServerCompletion | string {
    const parsed = CompletionSchema.safeParse(response);
    if (!parsed.success) return `a /completion answer without tokens, completion_probabilities and stop_type (${parsed.error.issues[0]?.message ?? "malformed"}); is it llama-server?`;
    const { tokens, stop_type: stopType, model } = parsed.data;
    const probabilities = parsed.data.completion_probabilities ?? [];
    // Entries are missing for tokens whose text was an incomplete UTF-8 sequence, and trimmed at the end after a stop string: match them by id, in order.
    const logprobs: Array<number | undefined> = [];
    let next = 0;
    for (const token of tokens) {
      const entry = probabilities[next];
      if (entry !== undefined && entry.id === token) {
        logprobs.push(Math.log(entry.prob));
        next++;
      } else {
        logprobs.push(undefined);
      }
    }
    return { tokenIds: tokens, logprobs, finishReason: FINISH_REASONS[stopType] ?? "stop", model };
  },
  nextTokenLogprob: {
    // One drawn token, with the probability of every token the chain leaves (llama-server caps n_probs at the candidates there are).
    body: (request) => ({ ...settings({ ...request, grammar: undefined }), n_predict: 1, n_probs: ALL_CANDIDATES, stop: [] }),
    read(response, tokenId) {
      const parsed = NextTokenSchema.safeParse(response);
      if (!parsed.success) return undefined;
      const entry = parsed.data.completion_probabilities[0]?.top_probs.find((candidate) => candidate.id === tokenId);
      return entry === undefined ? undefined : Math.log(entry.prob);
    },
  },
};
