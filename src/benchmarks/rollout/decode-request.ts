import type { DecodeMode } from "./decode-settings.js";

/** One sequence to decode outside the arena: the prompt our rollout sent and the completion length it got. */
export interface DecodeRequest {
  promptTokenIds: readonly number[];
  generatedTokens: number;
}

/** The requests of a round of Steps: what the native loop and node-llama-cpp replay. */
export function decodeRequestsOf(steps: ReadonlyArray<{ promptTokenIds: readonly number[]; completionTokenIds: readonly number[] }>): DecodeRequest[] {
  return steps.map((step) => ({ promptTokenIds: step.promptTokenIds, generatedTokens: step.completionTokenIds.length }));
}

/** The mean prompt and completion lengths of some requests, to a tenth of a token (0 for none): what a natural-length cell reports. */
export function meanLengthsOf(requests: readonly DecodeRequest[]): { promptTokens: number; generatedTokens: number } {
  const mean = (values: readonly number[]) => Number((values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1)).toFixed(1));
  return { promptTokens: mean(requests.map((request) => request.promptTokenIds.length)), generatedTokens: mean(requests.map((request) => request.generatedTokens)) };
}

/** What a replay of arena requests outside the arena (native loop, node-llama-cpp) runs with. */
export interface ReplayOptions {
  modelPath: string;
  requests: readonly DecodeRequest[];
  sequences: number;
  threads: number;
  mode: DecodeMode;
  contextPerSequence: number;
  /** Timed rounds after one untimed warm-up; the fastest counts. */
  rounds: number;
}
