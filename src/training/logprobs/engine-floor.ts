import type { GenerationRequest } from "../../core/inference-client.js";
import type { Device } from "../../inference/device/device-option.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { matchedTokenAgreement } from "./matched-token-agreement.js";

/** Requests re-decoded for the floor: one batch of this many, and each of them alone. */
export const ENGINE_FLOOR_BATCH = 16;

export interface EngineFloorOptions {
  modelPath: string;
  loraPath?: string;
  /** The requests to re-decode; the first `ENGINE_FLOOR_BATCH` are used. */
  requests: readonly GenerationRequest[];
  contextSize: number;
  threads: number;
  /** Where the engine runs (its floor is that device's arithmetic); default "auto". */
  device?: Device;
}

export interface EngineFloor {
  /** Tokens compared: each request's completion up to where the two runs drew different tokens. */
  tokens: number;
  maxAbsDiff: number;
  p99AbsDiff: number;
}

/**
 * The engine's own disagreement with itself: the same requests (same
 * sampler seeds) decoded one at a time and all together in a batch of 16, in
 * exact mode. Where the two runs draw the same tokens, their logprobs differ
 * only by the arithmetic of the batch (llama.cpp's kernels for one row and
 * for several sum in different orders); this is the yardstick a trainer's
 * agreement is read against. Once a completion's tokens diverge, the rest of
 * it is not compared.
 */
export async function measureEngineFloor(options: EngineFloorOptions): Promise<EngineFloor> {
  const requests = options.requests.slice(0, ENGINE_FLOOR_BATCH);
  const decode = async (sequences: number, batches: GenerationRequest[][]) => {
    const client = await LlamaInferenceClient.create({ modelPath: options.modelPath, loraPath: options.loraPath, mode: "exact", sequences, threads: options.threads, contextSize: options.contextSize, ...(options.device !== undefined && { device: options.device }) });
    try {
      const outputs = [];
      for (const batch of batches) outputs.push(...(await client.generate(batch)));
      return outputs;
    } finally {
      await client.dispose();
    }
  };
  const batched = await decode(requests.length, [[...requests]]);
  const alone = await decode(1, requests.map((request) => [request]));
  const { tokens, maxAbsDiff, p99AbsDiff } = matchedTokenAgreement(batched, alone);
  return { tokens, maxAbsDiff, p99AbsDiff };
}
