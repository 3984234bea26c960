import { NativeGgmlPolicy } from "../../inference/native/native-ggml-policy.js";
import type { TrainerConfiguration } from "./trainer-configuration.js";
import type { TrainerBackend } from "./trainer-checkpoint.js";

/**
 * The backend a run gets when it names none: `ggml` (llama.cpp's own kernels,
 * real-size models, faster) when the native addon is built and the algorithm
 * is one it has, else `tfjs` — with the reason, which the CLI says on stderr.
 */
export async function defaultTrainerBackend(configuration: TrainerConfiguration): Promise<{ backend: TrainerBackend; reason: string }> {
  if (configuration.algorithm === "ppo-critic") return { backend: "tfjs", reason: "ppo-critic's value head is tfjs-only" };
  const { available, reason } = await NativeGgmlPolicy.availability();
  return available ? { backend: "ggml", reason: "the native addon is built" } : { backend: "tfjs", reason: `the native addon is unavailable: ${reason}` };
}
