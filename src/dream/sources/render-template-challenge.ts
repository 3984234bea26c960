import type { RandomStream } from "../../core/random/random-stream.js";
import { challengeId, type Challenge } from "../challenges/challenge.js";
import { isHardMode, TIER_SIZE_MULTIPLIER, type ChallengeTier } from "../challenges/challenge-tier.js";
import type { ChallengeTemplate } from "../templates/challenge-template.js";

/** Renders a template at a tier into a challenge (its reference solution stays with the template). */
export function renderTemplateChallenge(template: ChallengeTemplate, tier: ChallengeTier, stream: RandomStream): Challenge {
  const rendered = template.render({ tier, sizeMultiplier: TIER_SIZE_MULTIPLIER[tier], hardMode: isHardMode(tier), stream });
  const content = {
    cluster: template.cluster,
    tier,
    prompt: rendered.prompt,
    setup: rendered.setup,
    validator: rendered.validator,
    outputFile: rendered.outputFile,
    source: "template" as const,
  };
  return { id: challengeId(content), ...content };
}
