import { getLlama, LlamaLogLevel, type Llama, type LlamaGpuType } from "node-llama-cpp";
import { parseDevice, type Device } from "../device/device-option.js";
import { DeviceBuildConflictError, DeviceNotFoundError } from "../errors/index.js";
import { llamaBuildInProcess } from "./llama-build-in-process.js";

/**
 * libgomp's spin count at a barrier before a thread sleeps, for builds of
 * llama.cpp with OpenMP (node-llama-cpp's source builds; its prebuilt CPU
 * library has none). Left to libgomp, 2-thread decoding in our process (the
 * loop's thread, node-llama-cpp's threads: more than one OpenMP team) slept
 * on a futex at ggml's per-operation barriers: 27 tokens/s on the 2-core
 * machine where llama.cpp's own tool, on the same library, decodes 2,200.
 * Setting it explicitly to 300,000 — libgomp's documented default, ~3 ms —
 * gave 2,183–2,502. (Past that, a process with more OpenMP threads than CPUs
 * spins only 100 rounds whatever this says: see measureNodeLlamaCppLoop.)
 */
const GOMP_SPINCOUNT = "300000";

/** node-llama-cpp's build for a device request: its CPU binaries for "cpu", its CUDA or Vulkan ones, or its own pick for "auto". */
type LlamaBuild = "auto" | Exclude<LlamaGpuType, false> | false;

let loaded: { build: LlamaBuild; llama: Promise<Llama> } | undefined;

/**
 * The process's llama.cpp binding. Uses node-llama-cpp's prebuilt binaries,
 * or the build `node-llama-cpp source download` made: an install never
 * compiles llama.cpp behind the user's back. A process holds one build (the
 * native addon binds to it for good), so the first request chooses it: "cpu"
 * the CPU binaries, "cuda"/"vulkan" those, "auto" node-llama-cpp's pick (its
 * CUDA or Vulkan build where one loads, else the CPU's). Later requests reuse
 * it — every build has ggml's CPU device, and "auto" takes what the loaded build
 * has — except one for another GPU backend: DeviceBuildConflictError.
 */
export function loadLlama(device: Device): Promise<Llama> {
  const { kind } = parseDevice(device);
  // Another thread of this process may have loaded a build: "cpu" and "auto" take it, as they take this thread's.
  const inProcess = loaded === undefined && (kind === "cpu" || kind === "auto") ? llamaBuildInProcess() : undefined;
  const build: LlamaBuild = inProcess ?? (kind === "cpu" ? false : kind);
  if (loaded !== undefined) {
    const current = loaded;
    if (build === false || build === "auto" || build === current.build) return current.llama;
    return current.llama.then((llama) => {
      if (llama.gpu !== build) throw new DeviceBuildConflictError(device, llama.gpu === false ? "CPU" : llama.gpu);
      return llama;
    });
  }
  // libgomp reads its settings once, when llama.cpp's CPU backend loads it; a user's own setting wins.
  if (process.env.GOMP_SPINCOUNT === undefined && process.env.OMP_WAIT_POLICY === undefined) process.env.GOMP_SPINCOUNT = GOMP_SPINCOUNT;
  // ggml-vulkan's matrix products on a device with f16 arithmetic keep their operand tiles in f16 (and f16 products
  // accumulate in f16): on Mesa's llvmpipe the trainer's f32 logprobs moved by 1.3e-2 from ggml's CPU and the engine's
  // by ~3e-3. The f32 shaders keep Vulkan's arithmetic f32 for the engine and the trainer alike, as exact mode's f32 KV
  // cache does for the cache. ggml reads this when it first opens a Vulkan device; SELFPLAY_VULKAN_F16=1 (or the
  // user's own GGML_VK_DISABLE_F16) leaves ggml's choice.
  if (build !== false && process.env.GGML_VK_DISABLE_F16 === undefined && process.env.SELFPLAY_VULKAN_F16 !== "1") process.env.GGML_VK_DISABLE_F16 = "1";
  const llama = getLlama({ gpu: build, build: "never", logLevel: LlamaLogLevel.error }).catch((error: unknown) => {
    if (build === "auto" || build === false) throw error;
    // node-llama-cpp's GPU binaries are installed for every machine; without the driver or a device they do not load.
    const backend = build === "cuda" ? "CUDA" : "Vulkan";
    throw new DeviceNotFoundError(device, ["CPU"], `node-llama-cpp's ${backend} binaries do not load on this machine (${error instanceof Error ? error.message : String(error)}): no ${backend} driver or device`);
  });
  loaded = { build, llama };
  // A failed load (no CUDA library, say) leaves the choice open for the next request.
  llama.catch(() => {
    if (loaded?.llama === llama) loaded = undefined;
  });
  return llama;
}
