import { SelfplayError } from "../../core/errors/index.js";

/**
 * A GGUF file is not a LoRA adapter selfplay can hand to llama.cpp: not an
 * adapter, a missing or mistyped key, unpaired or misshapen lora_a/lora_b
 * tensors. llama.cpp aborts the process on some of these (a non-float32
 * `adapter.lora.alpha`), so they are caught first.
 */
export class InvalidAdapterFileError extends SelfplayError {
  override readonly name = "InvalidAdapterFileError";
  constructor(
    readonly path: string,
    /** The metadata key or tensor name at fault, e.g. `adapter.lora.alpha` or `blk.0.attn_q.weight.lora_a`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${path}: ${field}: ${problem}`);
  }
}
