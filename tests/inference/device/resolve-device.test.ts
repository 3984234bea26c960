import { describe, expect, it } from "vitest";
import { describeDevice, resolveDevice, type GgmlDevice } from "../../../src/inference/device/resolve-device.js";
import { DeviceSchema, parseDevice } from "../../../src/inference/device/device-option.js";
import { DeviceNotFoundError } from "../../../src/inference/errors/index.js";

const GIB = 1024 ** 3;
const cpu: GgmlDevice = { name: "CPU", description: "AMD EPYC", backend: "CPU", type: "cpu", memoryFree: 100 * GIB, memoryTotal: 128 * GIB, software: false };
const llvmpipe: GgmlDevice = { name: "Vulkan0", description: "llvmpipe (LLVM 15.0.6, 256 bits)", backend: "Vulkan", type: "gpu", memoryFree: 2 * GIB, memoryTotal: 2 * GIB, software: true };
const radeon: GgmlDevice = { name: "Vulkan1", description: "AMD Radeon RX 7900", backend: "Vulkan", type: "gpu", memoryFree: 20 * GIB, memoryTotal: 24 * GIB, software: false };
const h100: GgmlDevice = { name: "CUDA0", description: "NVIDIA H100 80GB HBM3", backend: "CUDA", type: "gpu", memoryFree: 79 * GIB, memoryTotal: 80 * GIB, software: false };

describe("DeviceSchema", () => {
  it("takes auto, cpu, cuda[:N] and vulkan[:N], and nothing else", () => {
    for (const device of ["auto", "cpu", "cuda", "cuda:1", "vulkan", "vulkan:0"]) expect(DeviceSchema.safeParse(device).success).toBe(true);
    for (const device of ["nope", "gpu", "CUDA", "cuda:", "cuda:x", "metal", "cpu:0", ""]) expect(DeviceSchema.safeParse(device).success).toBe(false);
    expect(parseDevice("cuda:1")).toEqual({ kind: "cuda", index: 1 });
    expect(parseDevice("vulkan")).toEqual({ kind: "vulkan", index: 0 });
  });
});

describe("resolveDevice", () => {
  it("auto takes the first GPU ggml lists that is not a software Vulkan device", () => {
    const chosen = resolveDevice("auto", [cpu, llvmpipe, radeon]);
    expect(chosen).toMatchObject({ requested: "auto", name: "Vulkan1", backend: "Vulkan", cpu: false, memoryFree: 20 * GIB });
    expect(resolveDevice("auto", [cpu, h100, radeon]).name).toBe("CUDA0");
  });

  it("auto falls back to the CPU when the only GPU is a CPU-type Vulkan device, and says so", () => {
    const chosen = resolveDevice("auto", [cpu, llvmpipe]);
    expect(chosen).toMatchObject({ name: "CPU", cpu: true });
    expect(chosen.reason).toBe("auto: ggml found no GPU but Vulkan0, a CPU-type Vulkan device");
    expect(resolveDevice("auto", [cpu]).reason).toBe("auto: ggml found no GPU");
  });

  it("vulkan:0 takes a software Vulkan device when asked for by name", () => {
    expect(resolveDevice("vulkan:0", [cpu, llvmpipe, radeon])).toMatchObject({ requested: "vulkan:0", name: "Vulkan0", description: llvmpipe.description, cpu: false });
    expect(resolveDevice("vulkan:1", [cpu, llvmpipe, radeon]).name).toBe("Vulkan1");
  });

  it("cpu takes the CPU whatever GPUs there are", () => {
    expect(resolveDevice("cpu", [cpu, h100])).toMatchObject({ name: "CPU", cpu: true, reason: "asked for the CPU" });
  });

  it("a device asked for and absent is a DeviceNotFoundError naming what was found", () => {
    expect(() => resolveDevice("cuda:1", [cpu, h100])).toThrow(DeviceNotFoundError);
    expect(() => resolveDevice("cuda:1", [cpu, h100])).toThrow("device: cuda:1 is not available (CUDA has 1 device(s)); found CPU (AMD EPYC), CUDA0 (NVIDIA H100 80GB HBM3)");
    expect(() => resolveDevice("cuda", [cpu, llvmpipe])).toThrow(/the loaded llama\.cpp build has no CUDA device\); found CPU \(AMD EPYC\), Vulkan0 \(llvmpipe .*, a CPU-type Vulkan device\)/);
  });

  it("describeDevice is the one stderr line: device, description, reason", () => {
    expect(describeDevice(resolveDevice("auto", [cpu, h100]))).toBe("device: CUDA0 (NVIDIA H100 80GB HBM3) — auto: the first GPU ggml found (CUDA)");
  });
});
