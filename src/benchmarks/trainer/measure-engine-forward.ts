import { NativeAddonUnavailableError } from "../../inference/errors/index.js";
import { timeEngineForward } from "../../inference/native/time-engine-forward.js";
import { median } from "../pool/measure-pool-cell.js";

export interface EngineForwardOptions {
  modelPath: string;
  /** The tokens one training sequence feeds the trainer's forward pass (at most 512). */
  tokens: Int32Array;
  threads: number;
  /** Warm runs the median is taken over (at least 3), after one untimed warm-up. */
  runs: number;
}

export interface EngineForwardMeasurement {
  /** Tokens per second of the engine's forward pass with logits at every position (the median warm run); null when the addon is not built (`reason`). */
  tokensPerSecond: number | null;
  reason?: string;
}

/**
 * The engine's own forward speed on a training sequence: llama.cpp (the
 * library the engine runs on) decoding the same tokens of the same file in one
 * batch with logits at every position, as the trainer computes them, at the
 * same thread count. node-llama-cpp's prompt figure computes the output layer
 * for the last token only, a quarter of a forward at a 151,936-token vocabulary.
 */
export async function measureEngineForward(options: EngineForwardOptions): Promise<EngineForwardMeasurement> {
  let seconds: number[];
  try {
    seconds = await timeEngineForward({ modelPath: options.modelPath, tokens: options.tokens, threads: options.threads, runs: options.runs + 1 });
  } catch (error) {
    if (!(error instanceof NativeAddonUnavailableError)) throw error;
    return { tokensPerSecond: null, reason: error.message };
  }
  // The first run also pays for first-touch of the weights and compute buffers.
  return { tokensPerSecond: Number((options.tokens.length / median(seconds.slice(1))).toPrecision(3)) };
}
