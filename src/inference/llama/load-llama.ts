import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";

const instances = new Map<boolean, Promise<Llama>>();

/**
 * libgomp's spin count at a barrier before it sleeps, for builds of llama.cpp
 * with OpenMP (node-llama-cpp's source builds; its prebuilt CPU library has
 * none). libgomp cuts spinning to ~100 rounds once a process has more OpenMP
 * threads than CPUs, and ours has more than one team (each thread that calls
 * into ggml starts its own): on the 2-core machine every one of ggml's
 * per-operation barriers then became a futex sleep, and 2-thread decoding ran
 * at 27 tokens/s instead of 2,200. 300,000 is libgomp's own default for a
 * process it does not throttle — what llama.cpp's tools get.
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
