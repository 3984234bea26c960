import { NativeAddonUnavailableError } from "../errors/index.js";
import type { Device } from "../device/device-option.js";
import { loadNativeAddon } from "../native/load-native-addon.js";

export type DecoderChoice = "native" | "node-llama-cpp" | "auto";
export type Decoder = Exclude<DecoderChoice, "auto">;

let fallbackAnnounced = false;

/**
 * "auto" is the native loop when its addon loads, else node-llama-cpp's path,
 * announced once per process (a silent fallback would hide a 3× slowdown).
 * "native" insists: without the addon it throws NativeAddonUnavailableError.
 */
export async function chooseDecoder(choice: DecoderChoice, device: Device): Promise<Decoder> {
  if (choice === "node-llama-cpp") return choice;
  const { binding, reason } = await loadNativeAddon(device);
  if (binding !== undefined) return "native";
  if (choice === "native") throw new NativeAddonUnavailableError(reason);
  if (!fallbackAnnounced) {
    fallbackAnnounced = true;
    console.warn(`selfplay: the native decoder is unavailable (${reason}); decoding through node-llama-cpp instead`);
  }
  return "node-llama-cpp";
}
