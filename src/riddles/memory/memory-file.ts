import { appendFile } from "node:fs/promises";
import { writeFileAtomic } from "../../core/write-file-atomic.js";

export interface MemoryFileOptions<Entry> {
  /** The Markdown file, e.g. `<out>/riddler_memory.md`; created (or replaced) by `create`. */
  path: string;
  /** The file's heading, e.g. "Riddler memory". */
  title: string;
  /** An entry's full line in the file. */
  formatEntry: (entry: Entry) => string;
  /** An entry's short line in prompt excerpts. */
  formatExcerpt: (entry: Entry) => string;
  /** The distilled section's lines, computed from every entry so far. */
  distill: (entries: readonly Entry[]) => string[];
}

/** The longest excerpt a prompt gets (RiddleArtifact's limit). */
export const MAX_EXCERPT_CHARS = 2000;

/**
 * A human-readable memory in Markdown: a stable "Distilled" section at the top
 * and the episode entries below it. Entries are appended one line per write;
 * `compact` rewrites the whole file (write-then-rename) with a fresh distilled
 * section and every entry still in it, so a killed run leaves the file either
 * before or after the compaction, never torn.
 */
export class MemoryFile<Entry> {
  private readonly entries: Entry[] = [];
  private distilled: string[] = [];
  /** Entries the distilled section was computed from. */
  private distilledFrom = 0;

  private constructor(private readonly options: MemoryFileOptions<Entry>) {}

  static async create<Entry>(options: MemoryFileOptions<Entry>): Promise<MemoryFile<Entry>> {
    const file = new MemoryFile(options);
    await writeFileAtomic(options.path, file.render());
    return file;
  }

  get path(): string {
    return this.options.path;
  }

  /** Entries appended so far, oldest first. */
  get size(): number {
    return this.entries.length;
  }

  async append(entry: Entry): Promise<void> {
    this.entries.push(entry);
    // One short write: a kill tears at most this line.
    await appendFile(this.options.path, `${this.options.formatEntry(entry)}\n`);
  }

  /** Recomputes the distilled section from every entry and rewrites the file whole. */
  async compact(): Promise<void> {
    this.distilled = this.options.distill(this.entries);
    this.distilledFrom = this.entries.length;
    await writeFileAtomic(this.options.path, this.render());
  }

  /**
   * What goes into a prompt: the distilled lines and the last `recentEpisodes`
   * entries' short lines, at most MAX_EXCERPT_CHARS (the oldest recent lines,
   * then the last distilled lines, give way first).
   */
  excerpt(recentEpisodes: number, maxChars = MAX_EXCERPT_CHARS): string {
    const distilled = [...this.distilled];
    const recent = recentEpisodes === 0 ? [] : this.entries.slice(-recentEpisodes).map(this.options.formatExcerpt);
    const text = () =>
      [...(distilled.length === 0 ? [] : ["distilled:", ...distilled.map((line) => `- ${line}`)]), ...(recent.length === 0 ? [] : ["recent:", ...recent])].join("\n");
    while (text().length > maxChars && recent.length + distilled.length > 1) {
      if (recent.length > 1 || distilled.length === 0) recent.shift();
      else distilled.pop();
    }
    return text().slice(0, maxChars);
  }

  private render(): string {
    const distilled =
      this.distilled.length === 0
        ? ["(nothing distilled yet)"]
        : [`Compacted after ${this.distilledFrom} episode(s).`, "", ...this.distilled.map((line) => `- ${line}`)];
    return [`# ${this.options.title}`, "", "## Distilled", "", ...distilled, "", "## Episodes", "", ...this.entries.map(this.options.formatEntry), ""].join("\n");
  }
}
