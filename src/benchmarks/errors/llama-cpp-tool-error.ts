import { SelfplayError } from "../../core/errors/index.js";

/**
 * A llama.cpp tool the benchmarks measure against (`llama-batched-bench`,
 * `llama-finetune`) is not built, could not be built, or failed on a run.
 * `problem` says which and what to do.
 */
export class LlamaCppToolError extends SelfplayError {
  override readonly name = "LlamaCppToolError";
  constructor(
    /** The tool's executable name, e.g. `llama-batched-bench`. */
    readonly tool: string,
    readonly problem: string,
  ) {
    super(`${tool}: ${problem}`);
  }
}
