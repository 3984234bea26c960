import { SelfplayError } from "../../core/errors/index.js";

/**
 * A LoRA adapter does not fit the base model it is used with: another
 * architecture, a tensor the model does not have, or shapes that disagree.
 * llama.cpp would refuse the adapter, or apply it to the wrong weights.
 */
export class AdapterMismatchError extends SelfplayError {
  override readonly name = "AdapterMismatchError";
  constructor(
    readonly adapterPath: string,
    readonly baseModelPath: string,
    /** The metadata key or tensor name at fault. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${adapterPath}: ${field}: ${problem} (base model ${baseModelPath}); use the adapter with the model it was made for`);
  }
}
