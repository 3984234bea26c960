import { DeviceNotFoundError } from "../errors/index.js";
import { parseDevice, type Device } from "./device-option.js";

/** One of ggml's devices, as the native addon lists them. */
export interface GgmlDevice {
  /** ggml's name: "CPU", "CUDA0", "Vulkan1" … */
  name: string;
  /** The driver's name for it, e.g. "NVIDIA H100 80GB HBM3", "llvmpipe (LLVM 15.0.6, 256 bits)". */
  description: string;
  /** ggml's backend: "CPU", "CUDA", "Vulkan" … */
  backend: string;
  type: "cpu" | "gpu" | "igpu" | "accel";
  /** Bytes, as the device reports them now. */
  memoryFree: number;
  memoryTotal: number;
  /** A Vulkan device whose Vulkan type is CPU (Mesa's llvmpipe): ggml calls it a GPU; "auto" never takes it. */
  software: boolean;
}

/** The device a request came to, and why: what stderr says and report.json / trainer.json record. */
export interface ResolvedDevice {
  /** What was asked for: "auto", "cpu", "vulkan:0" … */
  requested: Device;
  /** ggml's name of the device chosen. */
  name: string;
  description: string;
  backend: string;
  /** Whether it is ggml's CPU device (the trainer's AVX-512 kernels run there only). */
  cpu: boolean;
  memoryFree: number;
  memoryTotal: number;
  /** One line: which device, and why it was chosen. */
  reason: string;
}

const BACKENDS = { cuda: "CUDA", vulkan: "Vulkan" } as const;

/**
 * Picks a device among ggml's. "auto" takes the first GPU (or integrated GPU) that is not a
 * software Vulkan device, else the CPU; "cuda:N" / "vulkan:N" the N-th device of that backend
 * (a software Vulkan device included: asked for by name, it is what the user wants); "cpu" the CPU.
 * A device asked for and absent is a DeviceNotFoundError naming what was found.
 */
export function resolveDevice(requested: Device, devices: readonly GgmlDevice[]): ResolvedDevice {
  const request = parseDevice(requested);
  const found = devices.map((device) => `${device.name} (${device.description}${device.software ? ", a CPU-type Vulkan device" : ""})`);
  const cpu = devices.find((device) => device.type === "cpu");
  if (cpu === undefined) throw new DeviceNotFoundError(requested, found, "ggml has no CPU device");
  const chosen = (device: GgmlDevice, reason: string): ResolvedDevice => ({
    requested,
    name: device.name,
    description: device.description,
    backend: device.backend,
    cpu: device === cpu,
    memoryFree: device.memoryFree,
    memoryTotal: device.memoryTotal,
    reason,
  });
  if (request.kind === "cpu") return chosen(cpu, "asked for the CPU");
  if (request.kind === "auto") {
    const gpu = devices.find((device) => (device.type === "gpu" || device.type === "igpu") && !device.software);
    if (gpu !== undefined) return chosen(gpu, `auto: the first GPU ggml found (${gpu.backend})`);
    const skipped = devices.filter((device) => device.software).map((device) => device.name);
    return chosen(cpu, skipped.length === 0 ? "auto: ggml found no GPU" : `auto: ggml found no GPU but ${skipped.join(", ")}, a CPU-type Vulkan device`);
  }
  const backend = BACKENDS[request.kind];
  const ofBackend = devices.filter((device) => device.backend === backend);
  const device = ofBackend[request.index];
  if (device === undefined) {
    throw new DeviceNotFoundError(requested, found, ofBackend.length === 0 ? `the loaded llama.cpp build has no ${backend} device` : `${backend} has ${ofBackend.length} device(s)`);
  }
  return chosen(device, `asked for ${requested}`);
}

/** The line stderr prints when a model is opened on a device. */
export function describeDevice(device: ResolvedDevice): string {
  return `device: ${device.name} (${device.description}) — ${device.reason}`;
}
