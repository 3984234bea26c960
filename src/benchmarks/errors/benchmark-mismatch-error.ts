import { SelfplayError } from "../../core/errors/index.js";

/** A benchmark's sides would not measure the same work (a forced completion length not reached, say): it reports nothing rather than a wrong ratio. */
export class BenchmarkMismatchError extends SelfplayError {
  override readonly name = "BenchmarkMismatchError";
}
