import { SelfplayError } from "../../../core/errors/index.js";

/** What the ggml trainer would need, refused before any buffer is allocated. */
export class GgmlMemoryError extends SelfplayError {
  override readonly name = "GgmlMemoryError";
  constructor(
    /** What was being sized: "loading …" or "a chunk of N tokens". */
    readonly what: string,
    readonly neededBytes: number,
    readonly limitBytes: number,
    /** What to change, e.g. LoRA instead of full weights, or shorter chunks. */
    readonly fix: string,
  ) {
    super(`${what} needs ${gibibytes(neededBytes)} GiB, over the ggml trainer's limit of ${gibibytes(limitBytes)} GiB; ${fix}`);
  }
}

function gibibytes(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(2);
}
