import type { GenerationOutput } from "../../core/inference-client.js";

/**
 * The buffers of the outputs' typed arrays that can move to a worker instead
 * of being copied: each once, and only those no array shares with another
 * (moving a shared buffer would empty the other arrays on it).
 */
export function transferListOf(outputs: readonly GenerationOutput[]): ArrayBuffer[] {
  const views = new Map<ArrayBufferLike, number>();
  const whole = new Set<ArrayBuffer>();
  for (const output of outputs) {
    for (const array of [output.promptTokenIds, output.completionTokenIds, output.completionLogprobs]) {
      const { buffer } = array;
      views.set(buffer, (views.get(buffer) ?? 0) + 1);
      if (buffer instanceof ArrayBuffer && array.byteOffset === 0 && array.byteLength === buffer.byteLength) whole.add(buffer);
    }
  }
  return [...whole].filter((buffer) => views.get(buffer) === 1);
}
