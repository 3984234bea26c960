import type { RandomStream } from "../../core/random/random-stream.js";
import { ChallengeSchema, challengeId, type Challenge } from "../challenges/challenge.js";
import { isHardMode, TIER_SIZE_MULTIPLIER, type ChallengeTier } from "../challenges/challenge-tier.js";
import type { ChallengeTemplate } from "./challenge-template.js";

/** A template rendered into a challenge, with the reference solution that passes it. */
export interface TemplatedChallenge {
  challenge: Challenge;
  templateKey: string;
  referenceSolution: string;
}

/** Renders a template at a tier (size multiplier and hard-mode twist) with data drawn from `stream`. */
export function renderTemplate(template: ChallengeTemplate, tier: ChallengeTier, stream: RandomStream): TemplatedChallenge {
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
  return { challenge: ChallengeSchema.parse({ id: challengeId(content), ...content }), templateKey: template.key, referenceSolution: rendered.referenceSolution };
}
