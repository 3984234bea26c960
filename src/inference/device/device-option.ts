import { z } from "zod";

/**
 * Where a model runs, for the engine and the trainer alike: "auto" (the first GPU ggml finds, never a
 * Vulkan device whose type is CPU; else the CPU), "cpu", or a backend with an optional index among
 * that backend's devices, "cuda", "cuda:1", "vulkan", "vulkan:0". Default "auto".
 */
export const DeviceSchema = z
  .string()
  .regex(/^(auto|cpu|cuda(:\d+)?|vulkan(:\d+)?)$/, 'one of: auto, cpu, cuda, cuda:N, vulkan, vulkan:N (N: the device\'s index among that backend\'s)');
export type Device = z.infer<typeof DeviceSchema>;

/** The kinds of device a request names: a backend of ggml's, "cpu", or "auto". */
export type DeviceKind = "auto" | "cpu" | "cuda" | "vulkan";

/** A device request taken apart: its kind and, for cuda and vulkan, the index among that backend's devices (0 when absent). */
export interface DeviceRequest {
  kind: DeviceKind;
  index: number;
}

export function parseDevice(device: Device): DeviceRequest {
  const [kind, index] = DeviceSchema.parse(device).split(":") as [DeviceKind, string | undefined];
  return { kind, index: index === undefined ? 0 : Number(index) };
}
