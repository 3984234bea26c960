import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";

const instances = new Map<boolean, Promise<Llama>>();

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

/**
 * One llama.cpp binding per process and GPU setting. Uses node-llama-cpp's
 * prebuilt binaries, or the build `node-llama-cpp source download` made: an
 * install never compiles llama.cpp behind the user's back.
 */
export function loadLlama(gpu: boolean): Promise<Llama> {
  let instance = instances.get(gpu);
  if (!instance) {
    // libgomp reads its settings once, when llama.cpp's CPU backend loads it; a user's own setting wins.
    if (process.env.GOMP_SPINCOUNT === undefined && process.env.OMP_WAIT_POLICY === undefined) process.env.GOMP_SPINCOUNT = GOMP_SPINCOUNT;
    instance = getLlama({ gpu: gpu ? "auto" : false, build: "never", logLevel: LlamaLogLevel.error });
    instances.set(gpu, instance);
  }
  return instance;
}
