import { deriveStream } from "../../core/random/random-stream.js";
import type { ChallengeCluster } from "../../dream/challenges/challenge-cluster.js";
import type { ChallengeTier } from "../../dream/challenges/challenge-tier.js";
import type { Challenge } from "../../dream/challenges/challenge.js";
import { pickTemplate } from "../../dream/templates/pick-template.js";

/** Options of `renderDreamChallenges`. */
export interface RenderDreamChallengesOptions {
  seed: number;
  /** `train` or `held-out`: separate streams, so the held-out challenges are drawn apart from the trained ones. */
  purpose: "train" | "held-out";
  clusters: readonly ChallengeCluster[];
  /** The tier of each cluster. */
  tierOf: (cluster: ChallengeCluster) => ChallengeTier;
  /** Challenges per cluster. */
  perCluster: number;
}

/**
 * Challenges rendered from the templates, `perCluster` per cluster, each from
 * the seeded stream of its purpose and cluster (never the same template twice
 * in a row, as the dream cycle picks). Deterministic in the seed.
 */
export function renderDreamChallenges(options: RenderDreamChallengesOptions): Challenge[] {
  const challenges: Challenge[] = [];
  for (const cluster of options.clusters) {
    const stream = deriveStream(options.seed, "dream-environment", options.purpose, cluster);
    let last: string | null = null;
    for (let index = 0; index < options.perCluster; index++) {
      const rendered = pickTemplate(cluster, options.tierOf(cluster), stream, last);
      if (rendered === null) break;
      last = rendered.templateKey;
      challenges.push(rendered.challenge);
    }
  }
  return challenges;
}
