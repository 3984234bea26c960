import type { PlaybookEntry } from "./playbook-entry.js";
import type { PlaybookSettings } from "./playbook-settings.js";

/**
 * A lesson's help rate with one imagined help and one imagined miss (Laplace),
 * so an unused lesson scores 0.5 instead of 0 and is not the first displaced.
 */
export function usageScore(entry: Pick<PlaybookEntry, "uses" | "helped">): number {
  return (entry.helped + 1) / (entry.uses + 2);
}

/** The retirement rule: at least retireAfterUses uses and a raw help rate below minimumHelpRate. */
export function hasStoppedHelping(entry: Pick<PlaybookEntry, "uses" | "helped">, settings: PlaybookSettings): boolean {
  return entry.uses >= settings.retireAfterUses && entry.helped / entry.uses < settings.minimumHelpRate;
}
