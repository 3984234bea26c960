import { readFile } from "node:fs/promises";
import { InvalidInputError } from "../../core/errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { checkGeneralization, type GeneralizationSource } from "../lessons/generalization-guard.js";
import type { LessonDomain } from "../lessons/lesson-domains.js";
import type { HelpfulVerdict } from "../lessons/verify-lesson-helpful.js";
import { LessonNotAdmittedError } from "./errors/lesson-not-admitted-error.js";
import { UnknownLessonError } from "./errors/unknown-lesson-error.js";
import { lessonId } from "./lesson-id.js";
import type { PlaybookEntry, RetiredPlaybookEntry, RetirementReason } from "./playbook-entry.js";
import { PlaybookFileSchema, type PlaybookFile } from "./playbook-file.js";
import { playbookPrompt } from "./playbook-prompt.js";
import { PlaybookSettingsSchema, type PlaybookSettings, type PlaybookSettingsInput } from "./playbook-settings.js";
import type { PlaybookView } from "./playbook-view.js";
import { ReadonlyPlaybook } from "./readonly-playbook.js";
import { hasStoppedHelping, usageScore } from "./usage-score.js";

export interface PlaybookOptions {
  /** Cap and retirement rule; defaults in PlaybookSettingsSchema. */
  settings?: PlaybookSettingsInput;
  /** The clock stamping addedAt and retiredAt. Default: the system clock. */
  now?: () => Date;
}

/** What admitting a lesson did. */
export interface AdmitResult {
  /** The live entry (the existing one when the same lesson was already live). */
  entry: PlaybookEntry;
  /** False when the same lesson was already live. */
  added: boolean;
  /** The lesson retired to make room at the cap, if any. */
  displaced: RetiredPlaybookEntry | null;
}

/**
 * The persistent store of live lessons. It grows only through `admit`, which
 * re-checks the generalization guard and requires verify-helpful's keep; the
 * cycle records after each cycle whether the lessons in the prompt helped,
 * and lessons that stop helping (or lose at the cap) move to the retired
 * section, never deleted. Every change is written at once with
 * write-then-rename, so a killed cycle leaves the old file or the new one.
 */
export class Playbook implements PlaybookView {
  readonly isReadOnly = false;
  private readonly settings: PlaybookSettings;
  private readonly now: () => Date;
  private saving: Promise<void> = Promise.resolve();

  private constructor(readonly path: string, private state: PlaybookFile, options: PlaybookOptions) {
    this.settings = parseInput(PlaybookSettingsSchema, options.settings ?? {}, {
      fieldName: (segments) => `playbook.settings.${segments.map(String).join(".")}`,
    });
    this.now = options.now ?? (() => new Date());
  }

  /** Reads the playbook at `path`, or starts an empty one there when the file does not exist. */
  static async open(path: string, options: PlaybookOptions = {}): Promise<Playbook> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return new Playbook(path, { version: 1, live: [], retired: [] }, options);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new InvalidInputError(path, `a playbook JSON file (${(error as Error).message}); restore it or move it away to start an empty playbook`);
    }
    const state = parseInput(PlaybookFileSchema, json, {
      fieldName: (segments) => `${path}: ${segments.map(String).join(".") || "(root)"}`,
    });
    return new Playbook(path, state, options);
  }

  get live(): readonly PlaybookEntry[] {
    return this.state.live;
  }

  get retired(): readonly RetiredPlaybookEntry[] {
    return this.state.retired;
  }

  entriesFor(domains: readonly LessonDomain[]): readonly PlaybookEntry[] {
    const wanted = new Set(domains);
    return this.state.live.filter((entry) => entry.lesson.domains.some((domain) => wanted.has(domain)));
  }

  prompt(domains: readonly LessonDomain[]): string {
    return playbookPrompt(this.state.live.map((entry) => entry.lesson), domains);
  }

  /** The solver's view: reads pass through, writes throw ReadOnlyPlaybookError. */
  readonlyView(): ReadonlyPlaybook {
    return new ReadonlyPlaybook(this);
  }

  /**
   * Adds the lesson of a verify-helpful verdict. Throws LessonNotAdmittedError
   * unless the lesson passes the generalization guard against `source` (its
   * own challenge) and the verdict kept it. At the cap, the live lesson with
   * the lowest usage score (the oldest among equals) retires first.
   */
  async admit(verdict: HelpfulVerdict, source: GeneralizationSource): Promise<AdmitResult> {
    const guard = checkGeneralization(verdict.lesson, source);
    if (!guard.accepted) throw new LessonNotAdmittedError("generalization-guard", guard.rejection.kind);
    if (verdict.lesson.sourceChallengeHash !== source.challengeHash) {
      throw new LessonNotAdmittedError("generalization-guard", `the lesson comes from challenge ${verdict.lesson.sourceChallengeHash}, not ${source.challengeHash}`);
    }
    if (!verdict.kept) throw new LessonNotAdmittedError("verify-helpful", verdict.reason);
    const id = lessonId(verdict.lesson);
    const existing = this.state.live.find((entry) => entry.id === id);
    if (existing !== undefined) return { entry: existing, added: false, displaced: null };
    let displaced: RetiredPlaybookEntry | null = null;
    if (this.state.live.length >= this.settings.maxLiveLessons) {
      const lowest = this.state.live.reduce((worst, entry) => (usageScore(entry) < usageScore(worst) ? entry : worst));
      displaced = this.retire(lowest, "displaced-at-cap");
    }
    const entry: PlaybookEntry = { id, lesson: verdict.lesson, addedAt: this.now().toISOString(), uses: 0, helped: 0 };
    this.state.live.push(entry);
    await this.save();
    return { entry, added: true, displaced };
  }

  /**
   * Counts one cycle for each lesson in `ids` (those that were in the solver's
   * prompt), a help when `helped`, then retires every live lesson that has
   * stopped helping. Retired ids still count (a lesson can retire mid-cycle
   * at the cap). Returns the lessons retired now.
   */
  async recordUsage(ids: readonly string[], helped: boolean): Promise<RetiredPlaybookEntry[]> {
    for (const id of new Set(ids)) {
      const entry = this.state.live.find((candidate) => candidate.id === id) ?? this.state.retired.find((candidate) => candidate.id === id);
      if (entry === undefined) throw new UnknownLessonError(id);
      entry.uses++;
      if (helped) entry.helped++;
    }
    const retiring = this.state.live.filter((entry) => hasStoppedHelping(entry, this.settings));
    const retired = retiring.map((entry) => this.retire(entry, "stopped-helping"));
    await this.save();
    return retired;
  }

  private retire(entry: PlaybookEntry, reason: RetirementReason): RetiredPlaybookEntry {
    this.state.live = this.state.live.filter((candidate) => candidate !== entry);
    const retired: RetiredPlaybookEntry = { ...entry, retiredAt: this.now().toISOString(), retiredReason: reason };
    this.state.retired.push(retired);
    return retired;
  }

  /**
   * Writes are queued and each serialises the state when its turn comes, so
   * overlapping changes (an admit during a recordUsage) cannot land an older
   * state last.
   */
  private save(): Promise<void> {
    const written = this.saving.then(() => writeFileAtomic(this.path, `${JSON.stringify(this.state, null, 2)}\n`));
    this.saving = written.catch(() => undefined);
    return written;
  }
}
