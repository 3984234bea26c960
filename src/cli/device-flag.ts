import { Option } from "commander";
import type { InferenceClient } from "../core/inference-client.js";
import { DeviceSchema } from "../inference/device/device-option.js";
import { describeDevice } from "../inference/device/resolve-device.js";
import { describeEngineSettings } from "../inference/llama/engine-settings.js";
import { LlamaInferenceClient } from "../inference/llama/llama-inference-client.js";
import type { CliIo } from "./cli-io.js";

/** `--device`, on every command that opens a model: the values DeviceSchema takes, with the message a user sees for any other. */
export const DEVICE_FLAG = {
  device: DeviceSchema.optional(),
};

/** The help line of `--device`. */
export const DEVICE_HELP = "where models run: auto (default: the first GPU ggml finds, never a CPU-type Vulkan device; else the CPU), cpu, cuda[:N] or vulkan[:N]";

/** The `--device <device>` option, to add to a command. */
export function deviceOption(): Option {
  return new Option("--device <device>", DEVICE_HELP);
}

/**
 * Says on stderr, once a model is open, which device it is on and why, and under it each sequence's context and
 * the decode's threads (`describeEngineSettings`); a scripted client (no model) says nothing.
 */
export function announceDevice(io: CliIo, client: InferenceClient): void {
  if (client instanceof LlamaInferenceClient) io.stderr(`${describeDevice(client.device)}\n${describeEngineSettings(client.settings)}\n`);
}
