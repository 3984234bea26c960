/** One sequence to decode outside the arena: the prompt our rollout sent and the completion length it got. */
export interface DecodeRequest {
  promptTokenIds: readonly number[];
  generatedTokens: number;
}

/** The requests of a round of Steps: what the native loop and node-llama-cpp replay. */
export function decodeRequestsOf(steps: ReadonlyArray<{ promptTokenIds: readonly number[]; completionTokenIds: readonly number[] }>): DecodeRequest[] {
  return steps.map((step) => ({ promptTokenIds: step.promptTokenIds, generatedTokens: step.completionTokenIds.length }));
}
