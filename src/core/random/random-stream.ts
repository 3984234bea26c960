import seedrandom from "seedrandom";
import { z } from "zod";
import { InvalidInputError } from "../errors/index.js";
import { parseInput } from "../parse-input.js";

const BYTE = z.number().int().min(0).max(255);

/** Serialisable generator state (ARC4's two indices and its 256-byte permutation), so a resumed run continues the same sequence. */
export const RandomStreamStateSchema = z.object({ i: BYTE, j: BYTE, S: z.array(BYTE).length(256) });
export type RandomStreamState = z.infer<typeof RandomStreamStateSchema>;

/**
 * A seeded stream of random numbers (seedrandom's ARC4). Every random choice in
 * selfplay draws from one of these, never from `Math.random`.
 */
export class RandomStream {
  private readonly prng: seedrandom.StatefulPRNG<seedrandom.State.Arc4>;

  constructor(seed: string, state?: RandomStreamState) {
    this.prng = seedrandom(seed, { state: state ?? true }) as seedrandom.StatefulPRNG<seedrandom.State.Arc4>;
  }

  /** The stream a `state()` was taken from, continuing where it was (a checkpoint's generator, for instance). */
  static fromState(state: RandomStreamState): RandomStream {
    // With a state, seedrandom overwrites whatever the seed set up: the seed string is irrelevant.
    return new RandomStream("", parseInput(RandomStreamStateSchema, state, { fieldName: (path) => `state.${path.map(String).join(".")}` }));
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng.double();
  }

  /** Uniform 32-bit unsigned integer; used for sampler seeds. */
  uint32(): number {
    return this.prng.int32() >>> 0;
  }

  /** Uniform integer in [0, maxExclusive). */
  integer(maxExclusive: number): number {
    if (!Number.isInteger(maxExclusive) || maxExclusive <= 0) {
      throw new InvalidInputError("maxExclusive", "a positive integer", maxExclusive);
    }
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new InvalidInputError("items", "a non-empty array", []);
    return items[this.integer(items.length)] as T;
  }

  /** Index drawn with probability proportional to its weight (weights ≥ 0, not all 0). */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const weight of weights) {
      if (!(weight >= 0) || !Number.isFinite(weight)) {
        throw new InvalidInputError("weights", "finite numbers ≥ 0", weight);
      }
      total += weight;
    }
    if (total === 0) throw new InvalidInputError("weights", "at least one weight > 0", weights);
    let threshold = this.next() * total;
    for (let index = 0; index < weights.length; index++) {
      threshold -= weights[index] as number;
      if (threshold < 0) return index;
    }
    // Floating-point rounding can leave threshold at exactly 0: the last positive weight wins.
    return weights.findLastIndex((weight) => weight > 0);
  }

  state(): RandomStreamState {
    return this.prng.state();
  }
}

/**
 * The stream for one purpose of one run: same (run seed, path) ⇒ same numbers,
 * whatever else the run does. Paths look like `["episode", "7/2", "role", "solver"]`.
 */
export function deriveStream(runSeed: number, ...path: readonly string[]): RandomStream {
  return new RandomStream([String(runSeed), ...path].join("\u241f"));
}
