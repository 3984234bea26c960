import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { JsonlAppender } from "../../core/jsonl/jsonl-appender.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { deriveStream } from "../../core/random/random-stream.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { FrontierTracker } from "../../frontier/tracker/frontier-tracker.js";
import { FrontierTrackerSnapshotSchema } from "../../frontier/tracker/frontier-tracker-snapshot.js";
import type { FrontierSettingsInput } from "../../frontier/tracker/frontier-settings.js";
import { PrmExampleSchema, type PrmExample } from "../../frontier/prm/prm-state.js";
import { FailedRunJournal } from "../journal/failed-run-journal.js";
import { Playbook } from "../playbook/playbook.js";

/** The files of a dream output folder. */
export const DREAM_FILES = {
  cycles: "cycles.jsonl",
  playbook: "playbook.json",
  journal: "journal.jsonl",
  frontier: "frontier.json",
  trajectories: "trajectories.jsonl",
  stop: "STOP",
  inbox: "dream_inbox.md",
} as const;

/** frontier.json: the tracker's snapshot and the cycle runner's own anchors. */
const DreamStateFileSchema = z.strictObject({
  version: z.literal(1),
  /** Cycles run so far in this folder: the next cycle's index. */
  cycles: z.number().int().min(0),
  /** The seed's _LAST_TEMPLATE_KEY: no template twice in a row, across restarts too. */
  lastTemplateKey: z.string().nullable(),
  frontier: FrontierTrackerSnapshotSchema,
});

/** Options of `DreamWorkspace.open`. */
export interface DreamWorkspaceOptions {
  /** Seeds a new frontier's stream (a resumed one continues its saved stream). */
  seed: number;
  /** The clock of the playbook's stamps. */
  now: () => Date;
  frontierSettings?: FrontierSettingsInput;
  /** Receives the frontier's decision messages. */
  log?: (message: string) => void;
}

/**
 * A dream output folder opened for cycles: the playbook, the journal of
 * failed runs, the FrontierTracker (restored from frontier.json), the
 * append-only cycles.jsonl and the PRM trajectories (trajectories.jsonl, one
 * labelled state a line: what `selfplay prm train --trajectories` reads).
 */
export class DreamWorkspace {
  private constructor(
    readonly directory: string,
    readonly playbook: Playbook,
    readonly journal: FailedRunJournal,
    readonly frontier: FrontierTracker,
    readonly cycles: JsonlAppender,
    readonly trajectories: JsonlAppender,
    /** Labelled trajectories per cluster so far: the frontier's rarity signal. */
    readonly trajectoryCounts: Record<string, number>,
    public cycleCount: number,
    public lastTemplateKey: string | null,
  ) {}

  static async open(directory: string, options: DreamWorkspaceOptions): Promise<DreamWorkspace> {
    await mkdir(directory, { recursive: true });
    const playbook = await Playbook.open(join(directory, DREAM_FILES.playbook), { now: options.now });
    const journal = await FailedRunJournal.open(join(directory, DREAM_FILES.journal));
    const state = await readState(join(directory, DREAM_FILES.frontier));
    const trackerOptions = { ...(options.frontierSettings && { settings: options.frontierSettings }), ...(options.log && { log: options.log }) };
    const frontier = state === null ? new FrontierTracker({ ...trackerOptions, random: deriveStream(options.seed, "dream", "frontier") }) : FrontierTracker.restore(state.frontier, trackerOptions);
    const counts: Record<string, number> = {};
    for (const example of await readTrajectories(join(directory, DREAM_FILES.trajectories))) counts[example.cluster] = (counts[example.cluster] ?? 0) + 1;
    return new DreamWorkspace(
      directory,
      playbook,
      journal,
      frontier,
      await JsonlAppender.open(join(directory, DREAM_FILES.cycles)),
      await JsonlAppender.open(join(directory, DREAM_FILES.trajectories)),
      counts,
      state?.cycles ?? 0,
      state?.lastTemplateKey ?? null,
    );
  }

  path(file: keyof typeof DREAM_FILES): string {
    return join(this.directory, DREAM_FILES[file]);
  }

  /** Writes frontier.json (write-then-rename): the tracker and the anchors after a cycle. */
  async saveState(): Promise<void> {
    const state = { version: 1, cycles: this.cycleCount, lastTemplateKey: this.lastTemplateKey, frontier: this.frontier.snapshot() };
    await writeFileAtomic(this.path("frontier"), `${JSON.stringify(state, null, 2)}\n`);
  }

  async close(): Promise<void> {
    await Promise.all([this.journal.close(), this.cycles.close(), this.trajectories.close()]);
  }
}

async function readState(path: string): Promise<z.infer<typeof DreamStateFileSchema> | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const parsed = DreamStateFileSchema.safeParse((() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  })());
  if (!parsed.success) throw new InvalidInputError(path, "a dream frontier.json written by selfplay dream; move it away to start a fresh frontier");
  return parsed.data;
}

async function readTrajectories(path: string): Promise<PrmExample[]> {
  try {
    return (await readJsonl(path, PrmExampleSchema)).records;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
