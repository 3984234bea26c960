import type { LessonDomain } from "../lessons/lesson-domains.js";
import { ReadOnlyPlaybookError } from "./errors/read-only-playbook-error.js";
import type { PlaybookEntry, RetiredPlaybookEntry } from "./playbook-entry.js";
import type { PlaybookView } from "./playbook-view.js";

/**
 * The playbook as a solver gets it (the seed's read-only memory wrappers):
 * reads see the live store, writes throw ReadOnlyPlaybookError instead of
 * the seed's silent no-ops, so a solver that tries to write is found, not ignored.
 * Entries are frozen copies, so a solver cannot edit counts through them.
 */
export class ReadonlyPlaybook implements PlaybookView {
  readonly isReadOnly = true;

  constructor(private readonly source: PlaybookView) {}

  get live(): readonly PlaybookEntry[] {
    return this.source.live.map(freezeEntry);
  }

  get retired(): readonly RetiredPlaybookEntry[] {
    return this.source.retired.map(freezeEntry);
  }

  entriesFor(domains: readonly LessonDomain[]): readonly PlaybookEntry[] {
    return this.source.entriesFor(domains).map(freezeEntry);
  }

  prompt(domains: readonly LessonDomain[]): string {
    return this.source.prompt(domains);
  }

  admit(): never {
    throw new ReadOnlyPlaybookError("admit");
  }

  recordUsage(): never {
    throw new ReadOnlyPlaybookError("recordUsage");
  }
}

function freezeEntry<Entry extends PlaybookEntry>(entry: Entry): Entry {
  return Object.freeze({ ...entry, lesson: Object.freeze({ ...entry.lesson, domains: Object.freeze([...entry.lesson.domains]) }) }) as Entry;
}
