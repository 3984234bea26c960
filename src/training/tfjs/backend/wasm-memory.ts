import * as tf from "@tensorflow/tfjs";
import { WasmOutOfMemoryError } from "../errors/index.js";

/** WebAssembly (wasm32) memory stops at 4 GiB; tfjs-wasm's heap cannot grow past it. */
export const WASM_HEAP_CEILING_BYTES = 4 * 2 ** 30;

/**
 * Throws WasmOutOfMemoryError before a task that would not fit: on wasm,
 * running out of heap corrupts the instance ("memory access out of bounds")
 * instead of failing cleanly, so the check has to come first. Other backends
 * allocate natively and are not checked.
 */
export function checkWasmMemory(task: string, requiredBytes: number): void {
  if (tf.getBackend() !== "wasm") return;
  const total = tf.memory().numBytes + requiredBytes;
  if (total > WASM_HEAP_CEILING_BYTES) throw new WasmOutOfMemoryError(task, total, WASM_HEAP_CEILING_BYTES);
}

/** True for the errors tfjs-wasm raises when its heap is exhausted. */
export function isWasmOutOfMemory(error: unknown): boolean {
  if (!(error instanceof Error) || tf.getBackend() !== "wasm") return false;
  return /memory access out of bounds|Cannot enlarge memory|Aborted\(OOM\)|out of memory/i.test(error.message);
}

/** Runs `task`, turning a wasm heap exhaustion into WasmOutOfMemoryError (with the original as its cause). */
export async function withWasmMemoryCheck<T>(task: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isWasmOutOfMemory(error)) throw new WasmOutOfMemoryError(task, undefined, WASM_HEAP_CEILING_BYTES, { cause: error });
    throw error;
  }
}
