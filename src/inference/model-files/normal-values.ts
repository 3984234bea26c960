import type { RandomStream } from "../../core/random/random-stream.js";

/** `count` draws from N(0, scale²) by the Box–Muller transform. */
export function normalValues(stream: RandomStream, count: number, scale: number): Float32Array {
  const values = new Float32Array(count);
  for (let index = 0; index < count; index += 2) {
    // 1 − u lies in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - stream.next())) * scale;
    const angle = 2 * Math.PI * stream.next();
    values[index] = radius * Math.cos(angle);
    if (index + 1 < count) values[index + 1] = radius * Math.sin(angle);
  }
  return values;
}
