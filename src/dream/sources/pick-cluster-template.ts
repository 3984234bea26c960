import type { RandomStream } from "../../core/random/random-stream.js";
import type { ChallengeTemplate } from "../templates/challenge-template.js";

/**
 * A template among `templates` whose cluster `accepts`, uniformly from
 * `random`, never `lastKey` unless it is the only one (the seed's
 * no-same-template-twice-in-a-row anchor, kept by the caller). Null when no
 * template's cluster is accepted.
 */
export function pickClusterTemplate(
  templates: readonly ChallengeTemplate[],
  accepts: (cluster: string) => boolean,
  lastKey: string | null,
  random: RandomStream,
): ChallengeTemplate | null {
  const eligible = templates.filter((template) => accepts(template.cluster));
  if (eligible.length === 0) return null;
  const fresh = eligible.filter((template) => template.key !== lastKey);
  return random.pick(fresh.length > 0 ? fresh : eligible);
}
