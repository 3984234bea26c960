import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";

const instances = new Map<boolean, Promise<Llama>>();

/**
 * One llama.cpp binding per process and GPU setting. Uses node-llama-cpp's
 * prebuilt binaries only: an install never compiles llama.cpp behind the user's back.
 */
export function loadLlama(gpu: boolean): Promise<Llama> {
  let instance = instances.get(gpu);
  if (!instance) {
    instance = getLlama({ gpu: gpu ? "auto" : false, build: "never", logLevel: LlamaLogLevel.error });
    instances.set(gpu, instance);
  }
  return instance;
}
