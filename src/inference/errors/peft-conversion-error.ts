import { SelfplayError } from "../../core/errors/index.js";

/**
 * A GGUF LoRA adapter holds something the Hugging Face PEFT form that
 * `writePeftAdapter` writes (and vLLM loads) cannot express: a matrix other
 * than the attention and feed-forward projections (e.g. an untied `output`,
 * lm_head), or pairs of different ranks (PEFT's `r` is one number).
 */
export class PeftConversionError extends SelfplayError {
  override readonly name = "PeftConversionError";
  constructor(
    readonly adapterPath: string,
    /** The tensor or metadata key at fault, e.g. `output.weight.lora_a`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${adapterPath}: ${field}: ${problem}`);
  }
}
