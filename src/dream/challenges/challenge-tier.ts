import { z } from "zod";

/** A cluster's difficulty tier, lowest first (the frontier unlocks them in this order). */
export const ChallengeTierSchema = z.enum(["basic", "intermediate", "advanced", "expert"]);
export type ChallengeTier = z.infer<typeof ChallengeTierSchema>;

/** How many times a template's base problem size (rows, lines, items) a tier renders. */
export const TIER_SIZE_MULTIPLIER: Readonly<Record<ChallengeTier, number>> = { basic: 1, intermediate: 2, advanced: 3, expert: 4 };

/**
 * Whether a tier turns on its template's hard-mode twist. Always described in
 * the prompt: the tier is a curriculum, not a trap.
 */
export function isHardMode(tier: ChallengeTier): boolean {
  return tier === "advanced" || tier === "expert";
}
