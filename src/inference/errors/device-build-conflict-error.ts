import { SelfplayError } from "../../core/errors/index.js";

/**
 * A process holds one llama.cpp build (node-llama-cpp's CPU, CUDA or Vulkan binaries) and the native
 * addon binds to it for good; a later request needs another build.
 */
export class DeviceBuildConflictError extends SelfplayError {
  override readonly name = "DeviceBuildConflictError";
  constructor(requested: string, loaded: string) {
    super(
      `device: ${requested} needs node-llama-cpp's ${requested.split(":")[0]} build, but this process already runs its ${loaded} build ` +
        "(one llama.cpp build per process). Ask for the same device family everywhere in one process, or start another process",
    );
  }
}
