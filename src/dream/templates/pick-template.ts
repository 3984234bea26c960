import type { RandomStream } from "../../core/random/random-stream.js";
import type { ChallengeCluster } from "../challenges/challenge-cluster.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";
import type { ChallengeTemplate } from "./challenge-template.js";
import { CHALLENGE_TEMPLATES } from "./challenge-templates.js";
import { renderTemplate, type TemplatedChallenge } from "./render-template.js";

/** Options of `pickTemplate`. */
export interface PickTemplateOptions {
  /** The templates to choose from. Default: `CHALLENGE_TEMPLATES`. */
  templates?: readonly ChallengeTemplate[];
}

/**
 * Picks one of the cluster's templates uniformly from `stream` — never the one
 * keyed `lastTemplateKey` (the previous pick: the seed's `_LAST_TEMPLATE_KEY`,
 * here held by the caller rather than a module variable) — and renders it at
 * `tier` with the same stream. Null when the cluster has no template; a
 * cluster whose only template was the last pick gets it again rather than
 * nothing.
 */
export function pickTemplate(
  cluster: ChallengeCluster,
  tier: ChallengeTier,
  stream: RandomStream,
  lastTemplateKey: string | null,
  options: PickTemplateOptions = {},
): TemplatedChallenge | null {
  const candidates = (options.templates ?? CHALLENGE_TEMPLATES).filter((template) => template.cluster === cluster);
  if (candidates.length === 0) return null;
  const fresh = candidates.filter((template) => template.key !== lastTemplateKey);
  const template = stream.pick(fresh.length > 0 ? fresh : candidates);
  return renderTemplate(template, tier, stream);
}
