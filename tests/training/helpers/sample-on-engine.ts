import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import type { Device } from "../../../src/inference/device/device-option.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";

export interface EngineSample {
  promptTokenIds: Int32Array;
  completionTokenIds: Int32Array;
  completionLogprobs: Float64Array;
  temperature: number;
}

/**
 * Samples one completion per prompt on the engine in exact mode, all in
 * parallel, alternating temperatures 0.7 and 1, until an end-of-sequence
 * token, `maxTokens`, or the end of the context.
 */
export async function sampleOnEngine(
  modelPath: string,
  prompts: readonly string[],
  maxTokens = 1 << 20,
  options: { device?: Device; loraPath?: string } = {},
): Promise<EngineSample[]> {
  const client = await LlamaInferenceClient.create({ modelPath, sequences: prompts.length, threads: 1, ...options });
  try {
    const temperatureOf = (index: number) => (index % 2 === 0 ? 0.7 : 1);
    const outputs = await client.generate(
      prompts.map((content, index) => ({
        messages: [{ role: "user", content }],
        sampler: { ...DEFAULT_SAMPLER, temperature: temperatureOf(index), seed: 100 + index, maxTokens },
        constraint: null,
      })),
    );
    return outputs.map((output, index) => ({ ...output, temperature: temperatureOf(index) }));
  } finally {
    await client.dispose();
  }
}

/** Largest |a − b| over every token of every sample. */
export function maxAbsDifference(samples: readonly EngineSample[], logprobs: readonly Float64Array[]): number {
  let largest = 0;
  samples.forEach((sample, index) => {
    sample.completionLogprobs.forEach((engine, position) => {
      largest = Math.max(largest, Math.abs(engine - ((logprobs[index] as Float64Array)[position] as number)));
    });
  });
  return largest;
}
