import type { LlamaContextSequence, Token } from "node-llama-cpp";

/** log Σ exp(values), computed without overflow. */
export function logSumExp(values: readonly number[]): number {
  const max = Math.max(...values);
  return max + Math.log(values.reduce((sum, value) => sum + Math.exp(value - max), 0));
}

/**
 * node-llama-cpp's full temperature-1 distribution after `prefix` (token id →
 * probability), the independent reference engine tests check recorded
 * logprobs against. The end-of-generation token is yielded like any other, so
 * a sampled one still returns the distribution.
 */
export async function referenceDistribution(sequence: LlamaContextSequence, prefix: readonly number[]): Promise<Map<number, number>> {
  await sequence.clearHistory();
  const evaluation = sequence.evaluateWithMetadata(prefix as Token[], { probabilities: true }, { temperature: 1, topK: 0, topP: 1, minP: 0, yieldEogToken: true });
  const { value } = await evaluation.next();
  await evaluation.return();
  if (!value) throw new Error("node-llama-cpp yielded no distribution");
  return value.probabilities as Map<number, number>;
}
