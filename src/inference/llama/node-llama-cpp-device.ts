import type { Llama } from "node-llama-cpp";
import { parseDevice, type Device } from "../device/device-option.js";
import type { ResolvedDevice } from "../device/resolve-device.js";
import { DeviceNotFoundError } from "../errors/index.js";

/** Names of software Vulkan drivers, which node-llama-cpp lists as GPUs; without the addon there is no Vulkan type to ask. */
const SOFTWARE_RENDERERS = /llvmpipe|lavapipe|swiftshader/i;

/**
 * The device a request comes to when node-llama-cpp decodes (the native addon is not built, so
 * ggml's device list cannot be read): node-llama-cpp's loaded build and the GPU names it reports.
 * It offloads to every GPU it has, so only the first of a backend can be asked for.
 */
export async function nodeLlamaCppDevice(llama: Llama, requested: Device): Promise<ResolvedDevice> {
  const request = parseDevice(requested);
  const names = llama.gpu === false ? [] : await llama.getGpuDeviceNames();
  const cpu: ResolvedDevice = { requested, name: "CPU", description: "node-llama-cpp's CPU backend", backend: "CPU", cpu: true, memoryFree: 0, memoryTotal: 0, reason: "" };
  const gpu = (reason: string): ResolvedDevice => ({
    requested,
    name: `${String(llama.gpu)}0`,
    description: names[0] ?? String(llama.gpu),
    backend: String(llama.gpu),
    cpu: false,
    memoryFree: 0,
    memoryTotal: 0,
    reason,
  });
  if (request.kind === "cpu") return { ...cpu, reason: "asked for the CPU" };
  const usable = names.length > 0 && !SOFTWARE_RENDERERS.test(names[0] ?? "");
  if (request.kind === "auto") return usable ? gpu("auto: node-llama-cpp's first GPU") : { ...cpu, reason: "auto: node-llama-cpp found no GPU" };
  if (llama.gpu !== request.kind || names.length === 0 || request.index > 0) {
    const found = ["CPU", ...names];
    throw new DeviceNotFoundError(requested, found, request.index > 0 ? "without the native addon only the first device of a backend can be chosen" : undefined);
  }
  return gpu(`asked for ${requested}`);
}
