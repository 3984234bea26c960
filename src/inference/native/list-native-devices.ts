import type { Device } from "../device/device-option.js";
import { resolveDevice, type GgmlDevice, type ResolvedDevice } from "../device/resolve-device.js";
import { openNativeDevice } from "./open-native-device.js";

/** ggml's devices in the llama.cpp build `device` loads, and the one `device` comes to. */
export interface NativeDevices {
  devices: GgmlDevice[];
  /** What the request (default "auto") picks among them, and why. */
  chosen: ResolvedDevice;
}

/**
 * Lists ggml's devices (name, description, backend, type, memory, whether a software Vulkan device)
 * as the native addon sees them, and what `device` picks (`selfplay devices`). Throws
 * NativeAddonUnavailableError without the addon, DeviceNotFoundError when `device` is not there.
 */
export async function listNativeDevices(device: Device = "auto"): Promise<NativeDevices> {
  const { binding } = await openNativeDevice(device);
  const devices: GgmlDevice[] = binding.listDevices().map((found) => ({ ...found }));
  return { devices, chosen: resolveDevice(device, devices) };
}
