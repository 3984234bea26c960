import { NativeAddonUnavailableError } from "../errors/index.js";
import type { Device } from "../device/device-option.js";
import { resolveDevice, type ResolvedDevice } from "../device/resolve-device.js";
import type { AddonBinding } from "./AddonTypes.js";
import { loadNativeAddon } from "./load-native-addon.js";

/**
 * The native addon bound to the build `device` needs, and the ggml device the request comes to
 * (resolveDevice). Throws NativeAddonUnavailableError when the addon cannot load, DeviceNotFoundError
 * when the device is not there.
 */
export async function openNativeDevice(device: Device): Promise<{ binding: AddonBinding; device: ResolvedDevice }> {
  const { binding, reason } = await loadNativeAddon(device);
  if (binding === undefined) throw new NativeAddonUnavailableError(reason);
  return { binding, device: resolveDevice(device, binding.listDevices()) };
}

/** Which device a request comes to on this machine (for `selfplay devices`, stderr and reports). */
export async function findDevice(device: Device): Promise<ResolvedDevice> {
  return (await openNativeDevice(device)).device;
}
