import type { RandomStream } from "../../core/random/random-stream.js";

/** Where a cycle's challenge comes from. */
export type ChallengeSourceKind =
  /** A template of the picked cluster at its tier (the normal path). */
  | "template"
  /** A failed run from the journal, retried or varied. */
  | "journal"
  /** Every candidate is saturated and the coin said template: a template of another (unsaturated when possible) cluster. */
  | "template-other-cluster"
  /** Every candidate is saturated and the coin said generate: a model-written challenge with the diversity injection. */
  | "generated";

/** The seed's saturation routing odds. */
export interface SaturationRoutingOptions {
  /** Chance of journal mining when every candidate is saturated. Default 0.75 (the seed's boost from 0.25). */
  journalProbability?: number;
  /** Chance the coin says template (else generated) when mining misses. Default 0.2 (the seed's 20/80). */
  templateProbability?: number;
}

/**
 * The seed's saturation routing. When the frontier found no unsaturated
 * cluster, journal mining is tried with probability 0.75 (`mine` returns null
 * on a miss: an empty journal or only saturated clusters' failures); when it
 * is not tried or misses, a 20/80 coin picks a template of another cluster or
 * a generated challenge: novel shapes are where the learning is once the
 * templates are aced. Otherwise the cluster's template. Draws come from
 * `random` only on the saturated path.
 */
export function routeChallengeSource<Seed>(
  allSaturated: boolean,
  random: RandomStream,
  mine: () => Seed | null,
  options: SaturationRoutingOptions = {},
): { kind: ChallengeSourceKind; seed: Seed | null } {
  if (!allSaturated) return { kind: "template", seed: null };
  if (random.next() < (options.journalProbability ?? 0.75)) {
    const seed = mine();
    if (seed !== null) return { kind: "journal", seed };
  }
  return { kind: random.next() < (options.templateProbability ?? 0.2) ? "template-other-cluster" : "generated", seed: null };
}
