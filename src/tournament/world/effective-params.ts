import type { Kernel } from "../kernel/kernel.js";
import type { KernelParams } from "../kernel/kernel-schema.js";
import type { WorldState } from "./world-state.js";

/** The parameters in force: the kernel's, with passed amendments over them. */
export function effectiveParams(kernel: Kernel, state: WorldState): KernelParams {
  return { ...kernel.params, ...state.paramOverrides } as KernelParams;
}
