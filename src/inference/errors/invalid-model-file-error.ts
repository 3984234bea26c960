import { SelfplayError } from "../../core/errors/index.js";

/**
 * A GGUF file is not a model selfplay can hand to llama.cpp: unsupported
 * architecture, a missing or wrong hyperparameter, tensor or tokenizer key.
 * llama.cpp aborts the whole process on some of these, so they are caught first.
 */
export class InvalidModelFileError extends SelfplayError {
  override readonly name = "InvalidModelFileError";
  constructor(
    readonly path: string,
    /** The metadata key or tensor name at fault, e.g. `llama.feed_forward_length` or `blk.0.attn_q.weight`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${path}: ${field}: ${problem}`);
  }
}
