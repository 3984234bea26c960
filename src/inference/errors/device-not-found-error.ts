import { SelfplayError } from "../../core/errors/index.js";

/** A device was asked for (`--device`, `device:`) that the loaded llama.cpp build's ggml does not have. */
export class DeviceNotFoundError extends SelfplayError {
  override readonly name = "DeviceNotFoundError";
  constructor(
    readonly requested: string,
    /** What ggml found, e.g. ["CPU (AMD EPYC)", "Vulkan0 (llvmpipe …)"]. */
    readonly found: readonly string[],
    detail?: string,
  ) {
    super(
      `device: ${requested} is not available${detail === undefined ? "" : ` (${detail})`}; found ${found.length === 0 ? "nothing" : found.join(", ")}. ` +
        'Use --device auto (the first GPU, else the CPU) or one of the devices found; a Vulkan device whose type is CPU (llvmpipe) is listed only when GGML_VK_VISIBLE_DEVICES names it',
    );
  }
}
