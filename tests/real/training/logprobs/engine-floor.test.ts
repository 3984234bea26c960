import { describe, expect, it } from "vitest";
import type { GenerationOutput, GenerationRequest } from "../../../../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../../src/inference/llama/llama-inference-client.js";
import { GgmlPolicy } from "../../../../src/training/ggml/ggml-policy.js";
import { measureEngineFloor } from "../../../../src/training/logprobs/engine-floor.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";

// The engine on SmolLM2-135M-Instruct (Q4_1 matrices, a q8_0 tied embedding, ChatML): its own floor, and greedy
// decoding across runs and batch sizes read against it.

const PROMPTS = ["What is the capital of France?", "Write a haiku about the sea.", "List three prime numbers.", "Why is the sky blue?"];
const CONTEXT = 256;
const request = (content: string, index: number, temperature: number): GenerationRequest => ({
  messages: [{ role: "user", content }],
  sampler: { ...DEFAULT_SAMPLER, temperature, seed: 100 + index, maxTokens: 16 },
  constraint: null,
});

/** The requests decoded on a client of `sequences` parallel sequences, `perCall` requests a generate call. */
async function decode(requests: readonly GenerationRequest[], sequences: number, perCall: number, calls = 1): Promise<GenerationOutput[][]> {
  const client = await LlamaInferenceClient.create({ modelPath: SMOLLM2_PATH, mode: "exact", sequences, threads: 1, contextSize: CONTEXT });
  try {
    const runs: GenerationOutput[][] = [];
    for (let call = 0; call < calls; call++) {
      const outputs: GenerationOutput[] = [];
      for (let start = 0; start < requests.length; start += perCall) outputs.push(...(await client.generate(requests.slice(start, start + perCall))));
      runs.push(outputs);
    }
    return runs;
  } finally {
    await client.dispose();
  }
}

/** Where two greedy decodes of one prompt first draw different tokens: the position and both tokens; undefined if nowhere. */
function firstDivergence(first: GenerationOutput, second: GenerationOutput) {
  const length = Math.max(first.completionTokenIds.length, second.completionTokenIds.length);
  for (let position = 0; position < length; position++) {
    const [a, b] = [first.completionTokenIds[position], second.completionTokenIds[position]];
    if (a !== b) return { position, tokens: [a, b] as const };
  }
  return undefined;
}

describe.skipIf(!realModelAvailable)(`the engine on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  it("has a floor of 0 (the same requests alone and in one batch give the same logprobs), and decodes greedily to the same ids in every run and batch size, any divergence only where the top two logits are closer than that floor", async () => {
    // Every matrix product of this file is quantised (q4_1, and q8_0 for the tied output): ggml quantises each
    // row's input and takes one dot product per output, whatever the batch holds; attention runs per
    // sequence's cache stream. Nothing is summed across rows, so batching moves no bit.
    const floor = await measureEngineFloor({ modelPath: SMOLLM2_PATH, requests: PROMPTS.map((content, index) => request(content, index, 1)), contextSize: CONTEXT, threads: 1 });
    expect(floor.tokens).toBeGreaterThan(30);
    expect(floor.maxAbsDiff).toBe(0);

    const greedy = PROMPTS.map((content, index) => request(content, index, 0));
    // Two runs of one batch of four; each prompt alone; four prompts through three sequences (the fourth starts
    // when one ends, beside the others' decoding).
    const [batched, again] = (await decode(greedy, 4, 4, 2)) as [GenerationOutput[], GenerationOutput[]];
    const [alone] = (await decode(greedy, 1, 1)) as [GenerationOutput[]];
    const [staggered] = (await decode(greedy, 3, 4)) as [GenerationOutput[]];
    const divergences = [again, alone, staggered].flatMap((run, runIndex) =>
      batched.flatMap((output, prompt) => {
        const divergence = firstDivergence(output, run[prompt] as GenerationOutput);
        return divergence === undefined ? [] : [{ run: ["again", "alone", "staggered"][runIndex], prompt, ...divergence, output }];
      }),
    );
    // The top-2 gap at each divergence, from the trainer: at temperature 1, logprob(a) − logprob(b) is logit(a) − logit(b).
    const gaps: number[] = [];
    if (divergences.length > 0) {
      const policy = await GgmlPolicy.load({ modelPath: SMOLLM2_PATH });
      try {
        for (const { output, position, tokens } of divergences) {
          const prefix = [...output.promptTokenIds, ...output.completionTokenIds.subarray(0, position)];
          const scored = await policy.logprobsBatch(tokens.map((token) => ({ promptTokenIds: prefix, completionTokenIds: [token ?? 0], temperature: 1 })));
          gaps.push(Math.abs((scored[0]?.[0] as number) - (scored[1]?.[0] as number)));
        }
      } finally {
        await policy.dispose();
      }
    }
    console.log(
      `SmolLM2 engine floor: ${floor.tokens} tokens, max |Δ| ${floor.maxAbsDiff}, p99 ${floor.p99AbsDiff}; greedy: ${batched.map((output) => output.completionTokenIds.length).join("/")} tokens, ` +
        `${divergences.length} divergences${divergences.map(({ run, prompt, position }, index) => ` (${run} prompt ${prompt} at ${position}: top-2 gap ${gaps[index]?.toExponential(2)})`).join("")}`,
    );
    expect(batched.every((output) => output.completionTokenIds.length > 4)).toBe(true);
    for (const gap of gaps) expect(gap).toBeLessThan(floor.maxAbsDiff);
  });
});
