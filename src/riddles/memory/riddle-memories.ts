import { join } from "node:path";
import type { RiddleConfig } from "../riddle-config.js";
import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import { actorMemoryEntry, formatActorEntry, type ActorMemoryEntry } from "./actor-memory-entry.js";
import { distillActorMemory } from "./distill-actor-memory.js";
import { distillRiddlerMemory } from "./distill-riddler-memory.js";
import { MemoryFile } from "./memory-file.js";
import { formatRiddlerEntry, riddlerMemoryEntry, type RiddlerMemoryEntry } from "./riddler-memory-entry.js";

/** File names of the two memories in a curriculum's folder. */
export const MEMORY_FILES = { riddler: "riddler_memory.md", actor: "actor_memory.md" } as const;

/** The short excerpts a riddle episode's prompts get. */
export interface MemoryExcerpts {
  riddlerMemory: string;
  actorMemory: string;
}

/**
 * The riddler's and the actor's memories of one curriculum: each episode is
 * appended to both; every `config.memory.compactEvery` episodes both are
 * compacted into their distilled sections.
 */
export class RiddleMemories {
  private constructor(
    private readonly config: RiddleConfig,
    readonly riddler: MemoryFile<RiddlerMemoryEntry>,
    readonly actor: MemoryFile<ActorMemoryEntry>,
  ) {}

  static async create(folder: string, config: RiddleConfig): Promise<RiddleMemories> {
    const riddler = await MemoryFile.create<RiddlerMemoryEntry>({
      path: join(folder, MEMORY_FILES.riddler),
      title: "Riddler memory",
      formatEntry: (entry) => formatRiddlerEntry(entry),
      // Prompts get the measured facts and a short clip of the riddle.
      formatExcerpt: (entry) => formatRiddlerEntry(entry, 40).replace(/ · id [0-9a-f]+/, ""),
      distill: (entries) => distillRiddlerMemory(entries, config.band),
    });
    const actor = await MemoryFile.create<ActorMemoryEntry>({
      path: join(folder, MEMORY_FILES.actor),
      title: "Actor memory",
      formatEntry: (entry) => formatActorEntry(entry),
      formatExcerpt: (entry) => formatActorEntry(entry, 24),
      distill: distillActorMemory,
    });
    return new RiddleMemories(config, riddler, actor);
  }

  excerpts(): MemoryExcerpts {
    const recent = this.config.memory.excerptEpisodes;
    return { riddlerMemory: this.riddler.excerpt(recent), actorMemory: this.actor.excerpt(recent) };
  }

  /** Appends the episode to both memories, then compacts them when the schedule says so; returns whether it compacted. */
  async record(outcome: RiddleEpisodeOutcome): Promise<boolean> {
    await this.riddler.append(riddlerMemoryEntry(outcome));
    await this.actor.append(actorMemoryEntry(outcome));
    if (this.riddler.size % this.config.memory.compactEvery !== 0) return false;
    await this.riddler.compact();
    await this.actor.compact();
    return true;
  }
}
