import type { PolicyConfiguration } from "./policy-configuration.js";

/** Per-position rotary tables, `[positions, keyLength]` row-major, in the layout `ropeRotation` pairs them. */
export interface RopeTables {
  positions: number;
  cos: Float32Array;
  sin: Float32Array;
}

/**
 * The cosines and sines llama.cpp's CPU rope uses at positions 0 … positions − 1,
 * computed the way `rope_cache_init` does, in f32: the angle of pair i starts
 * at the position and is multiplied by base^(−2/n_rot) once per pair (so the
 * rounding matches), then divided by `rope_freqs[i]` when the model has one.
 * Each angle is written to both members of its pair: (2i, 2i+1) for "normal"
 * rope, (i, i + n_rot/2) for "neox".
 */
export function ropeTables(configuration: PolicyConfiguration, positions: number, frequencyFactors?: Float32Array): RopeTables {
  const width = configuration.keyLength;
  const pairs = width / 2;
  const f32 = Math.fround;
  const thetaScale = f32(Math.pow(f32(configuration.ropeFrequencyBase), f32(-2 / width)));
  const cos = new Float32Array(positions * width);
  const sin = new Float32Array(positions * width);
  for (let position = 0; position < positions; position++) {
    let theta = f32(position);
    for (let pair = 0; pair < pairs; pair++) {
      const angle = frequencyFactors === undefined ? theta : f32(theta / (frequencyFactors[pair] as number));
      const [first, second] = configuration.ropeType === "normal" ? [2 * pair, 2 * pair + 1] : [pair, pair + pairs];
      const row = position * width;
      cos[row + first] = cos[row + second] = Math.cos(angle);
      sin[row + first] = sin[row + second] = Math.sin(angle);
      theta = f32(theta * thetaScale);
    }
  }
  return { positions, cos, sin };
}

/**
 * The `[keyLength, keyLength]` matrix R with x·R = the pair-partner of every
 * element, the first member negated: (x0, x1) → (−x1, x0). Rope is then
 * x·cos + (x·R)·sin, which is exactly ggml's x0·cos − x1·sin, x0·sin + x1·cos
 * (R has one ±1 per column, so x·R is exact), with a plain matMul for its gradient.
 */
export function ropeRotation(configuration: PolicyConfiguration): Float32Array {
  const width = configuration.keyLength;
  const pairs = width / 2;
  const rotation = new Float32Array(width * width);
  for (let pair = 0; pair < pairs; pair++) {
    const [first, second] = configuration.ropeType === "normal" ? [2 * pair, 2 * pair + 1] : [pair, pair + pairs];
    rotation[second * width + first] = -1;
    rotation[first * width + second] = 1;
  }
  return rotation;
}
