import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import { DeviceSchema } from "../device/device-option.js";
import { addonError } from "./addon-error.js";
import { leaseNativeModel } from "./native-model-lease.js";
import { openNativeDevice } from "./open-native-device.js";

export const EngineForwardTimingOptionsSchema = z.strictObject({
  /** GGUF model; shared with engines already open over the same file. */
  modelPath: z.string().min(1),
  /** 1 to 512 ids of the model's vocabulary, decoded as one sequence from position 0 in one batch (checked by the addon, which knows the vocabulary). */
  tokens: z.custom<Int32Array>((value) => value instanceof Int32Array, { error: "an Int32Array of token ids" }),
  /** CPU threads of the decode (n_threads and n_threads_batch). */
  threads: z.number().int().min(1).max(1024),
  /** Timed decodes; the first also pays for touching the weights and buffers (leave it out of a median). */
  runs: z.number().int().min(1).max(1000),
  /** Where the model runs: "auto" (default), "cpu", "cuda[:N]", "vulkan[:N]". */
  device: DeviceSchema.default("auto"),
});
export type EngineForwardTimingOptions = z.input<typeof EngineForwardTimingOptionsSchema>;

/**
 * Seconds of each of `runs` forward passes of the native engine over `tokens`
 * with logits at every position: a context with the engine's exact-mode
 * settings (f32 K/V cache, no flash attention), the whole sequence in one
 * batch, the cache cleared before each run. What a trainer computes forward
 * over the same tokens, so its speed can be put against the engine's.
 * Throws NativeAddonUnavailableError when the addon is not built,
 * InvalidInputError naming the option for a bad argument.
 */
export async function timeEngineForward(options: EngineForwardTimingOptions): Promise<number[]> {
  const parsed = parseInput(EngineForwardTimingOptionsSchema, options);
  const { binding, device } = await openNativeDevice(parsed.device);
  const lease = await leaseNativeModel(binding, parsed.modelPath, device.name).catch((error: unknown) => {
    throw addonError(error, "modelPath");
  });
  try {
    return [...(await lease.model.timeForward({ tokens: parsed.tokens, threads: parsed.threads, runs: parsed.runs }))];
  } catch (error) {
    throw addonError(error, "tokens");
  } finally {
    await lease.release();
  }
}
