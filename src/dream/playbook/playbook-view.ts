import type { LessonDomain } from "../lessons/lesson-domains.js";
import type { PlaybookEntry, RetiredPlaybookEntry } from "./playbook-entry.js";

/** What reading a playbook offers; the Playbook and its read-only view both have it. */
export interface PlaybookView {
  /** True on the solver's view (the seed's `is_read_only` marker): skip write-oriented work. */
  readonly isReadOnly: boolean;
  /** Live lessons, oldest first. */
  readonly live: readonly PlaybookEntry[];
  /** Retired lessons, in the order they retired. */
  readonly retired: readonly RetiredPlaybookEntry[];
  /** Live entries sharing one of `domains`. */
  entriesFor(domains: readonly LessonDomain[]): readonly PlaybookEntry[];
  /** The "### SKILL PLAYBOOK:" block for a cluster of `domains` ("" when no lesson applies). */
  prompt(domains: readonly LessonDomain[]): string;
}
