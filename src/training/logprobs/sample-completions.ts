import type { GenerationOutput, GenerationRequest, InferenceClient } from "../../core/inference-client.js";
import type { Constraint } from "../../core/schemas/constraint.js";
import { deriveStream } from "../../core/random/random-stream.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";

export interface SampleCompletionsOptions {
  /** Completion tokens to sample, at least. */
  tokens: number;
  /** Requests per `generate` call: the sequences the engine decodes in parallel. */
  sequences: number;
  /** Assigned to requests in turn. */
  temperatures: readonly number[];
  seed: number;
  /** The engine's context per sequence, in tokens. */
  contextSize: number;
  /** Applied to every other request (the odd-numbered ones); default none. */
  constraint?: Constraint;
}

/** Characters a long prompt leaves free of the context: room for the prompt template (a chat template's too) and a completion. */
const LONG_PROMPT_ROOM = 128;

/**
 * Samples rounds of `sequences` parallel requests with the untruncated
 * sampler until at least `tokens` completion tokens. Every request may run to
 * the end of the context; since an end-of-sequence token can stop one early,
 * every fourth request gets a prompt that fills all but ~128 tokens of the
 * context (printable ASCII: at most one token per character), so some
 * completions reach its last position. Prompts and sampler seeds come from
 * `deriveStream(seed, "check-logprobs", round)`.
 */
export async function sampleCompletions(
  client: InferenceClient,
  options: SampleCompletionsOptions,
): Promise<Array<{ request: GenerationRequest; output: GenerationOutput }>> {
  const samples: Array<{ request: GenerationRequest; output: GenerationOutput }> = [];
  let sampled = 0;
  for (let round = 0; sampled < options.tokens; round++) {
    const stream = deriveStream(options.seed, "check-logprobs", String(round));
    const requests = Array.from({ length: options.sequences }, (_, index): GenerationRequest => {
      const number = round * options.sequences + index;
      const length = number % 4 === 3 ? Math.max(1, options.contextSize - LONG_PROMPT_ROOM) : 1 + Math.floor(stream.next() * 24);
      return {
        messages: [{ role: "user", content: printableText(length, () => stream.next()) }],
        sampler: {
          ...DEFAULT_SAMPLER,
          temperature: options.temperatures[number % options.temperatures.length] as number,
          seed: stream.uint32(),
          // More than any context holds: the client stops at the end of the context.
          maxTokens: 1 << 20,
        },
        constraint: options.constraint !== undefined && number % 2 === 1 ? options.constraint : null,
      };
    });
    const outputs = await client.generate(requests);
    outputs.forEach((output, index) => samples.push({ request: requests[index] as GenerationRequest, output }));
    sampled += outputs.reduce((sum, output) => sum + output.completionTokenIds.length, 0);
  }
  return samples;
}

function printableText(length: number, next: () => number): string {
  return Array.from({ length }, () => String.fromCharCode(32 + Math.floor(next() * 95))).join("");
}
