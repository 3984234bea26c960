import { RandomStream } from "../../../src/core/random/random-stream.js";
import type { PrmExample } from "../../../src/frontier/prm/prm-state.js";

/**
 * A separable labelled-trajectory set: each prefix is random digits with a
 * marker word in the middle, "carry" on the states that succeed and "stall"
 * on those that fail, over four clusters whose success rates are equal — so
 * the per-cluster prior knows nothing and the PRM must read the prefix.
 */
export function syntheticPrmExamples(count: number, seed: string): PrmExample[] {
  const random = new RandomStream(seed);
  const digits = (length: number) => Array.from({ length }, () => String(random.integer(10))).join("");
  const clusters = ["add-1x1-carry", "add-2x2-carry", "subtract-2x1-borrow", "subtract-2x2-no-borrow"];
  return Array.from({ length: count }, (_, index) => {
    const label = index % 2;
    return {
      task: `${digits(2)}+${digits(2)}#${index}`,
      // Pairs of consecutive states share a cluster: one succeeds, one fails.
      cluster: clusters[Math.floor(index / 2) % 4] as string,
      prefix: `${digits(1 + random.integer(4))} ${label === 1 ? "carry" : "stall"} ${digits(1 + random.integer(4))}`,
      label,
    };
  });
}
