import { SelfplayError } from "../../../core/errors/index.js";

/**
 * The tfjs wasm backend ran out of memory. WebAssembly's heap stops at 4 GiB,
 * and every f32 weight takes 4 bytes of it: scoring fits models up to about a
 * billion parameters less activations, training (weights, gradients, optimiser
 * state) about a quarter of that. The wasm instance is unusable afterwards.
 */
export class WasmOutOfMemoryError extends SelfplayError {
  override readonly name = "WasmOutOfMemoryError";
  constructor(
    /** What needed the memory, e.g. `loading model.gguf`. */
    readonly task: string,
    /** Bytes the task was estimated to need, when known. */
    readonly requiredBytes: number | undefined,
    /** The heap's ceiling in bytes. */
    readonly ceilingBytes: number,
    options?: ErrorOptions,
  ) {
    const gibibytes = (bytes: number) => (bytes / 2 ** 30).toFixed(2);
    super(
      `${task}${requiredBytes === undefined ? " ran out of memory" : ` needs ${gibibytes(requiredBytes)} GiB`} on the tfjs wasm backend, ` +
        `whose heap stops at ${gibibytes(ceilingBytes)} GiB: that holds at most ~${(ceilingBytes / 4 / 1e9).toFixed(2)} billion f32 parameters ` +
        "with nothing else, and about a quarter of that for training. Install @tensorflow/tfjs-node or @tensorflow/tfjs-node-gpu " +
        "(with its native binary), score fewer tokens per batch, or use a smaller model",
      options,
    );
  }
}
