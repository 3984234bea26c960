import { z } from "zod";
import { InvalidInputError } from "../core/errors/index.js";
import { JsonValueSchema, type JsonValue } from "../core/json.js";
import type { RandomStream } from "../core/random/random-stream.js";

export interface ArtifactStoreOptions {
  /** Most entries kept; adding beyond it evicts the oldest. Default 10,000. */
  capacity?: number;
}

const EntrySchema = z.object({ id: z.number().int(), artifact: JsonValueSchema, weight: z.number().min(0) });
export type ArtifactEntry = z.infer<typeof EntrySchema>;

const SnapshotSchema = z.object({ nextId: z.number().int().min(0), entries: z.array(EntrySchema) });
export type ArtifactStoreSnapshot = z.infer<typeof SnapshotSchema>;

/**
 * A weighted sampling buffer of episode inputs (topics, seed questions, replay
 * examples). Sampling draws from a caller's seeded stream, so it is
 * reproducible; the store itself holds no randomness and snapshots to JSON.
 */
export class ArtifactStore {
  private entries: ArtifactEntry[] = [];
  private nextId = 0;
  private readonly capacity: number;

  constructor(options: ArtifactStoreOptions = {}) {
    this.capacity = options.capacity ?? 10_000;
    if (!Number.isInteger(this.capacity) || this.capacity < 1) {
      throw new InvalidInputError("capacity", "an integer ≥ 1", options.capacity);
    }
  }

  static of(artifacts: readonly JsonValue[], options?: ArtifactStoreOptions): ArtifactStore {
    const store = new ArtifactStore(options);
    for (const artifact of artifacts) store.add(artifact);
    return store;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Adds an artifact with a sampling weight (default 1) and returns its id. */
  add(artifact: JsonValue, weight = 1): number {
    assertWeight(weight);
    const id = this.nextId++;
    this.entries.push({ id, artifact: structuredClone(artifact), weight });
    if (this.entries.length > this.capacity) this.entries.shift();
    return id;
  }

  setWeight(id: number, weight: number): void {
    assertWeight(weight);
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (!entry) throw new InvalidInputError("id", `the id of an artifact in the store`, id);
    entry.weight = weight;
  }

  /** Draws one entry with probability proportional to its weight. */
  sample(random: RandomStream): ArtifactEntry {
    if (this.entries.length === 0) {
      throw new InvalidInputError("ArtifactStore", "at least one artifact before sampling (call add())");
    }
    const entry = this.entries[random.weightedIndex(this.entries.map((candidate) => candidate.weight))];
    return structuredClone(entry as ArtifactEntry);
  }

  /** The entries' artifacts, oldest first: read them, do not change them (they are not copies). */
  *artifacts(): IterableIterator<JsonValue> {
    for (const entry of this.entries) yield entry.artifact;
  }

  /** Draws one of the entries `accept` keeps, with probability proportional to its weight; undefined when it keeps none. */
  sampleWhere(random: RandomStream, accept: (artifact: JsonValue) => boolean): ArtifactEntry | undefined {
    const candidates = this.entries.filter((entry) => accept(entry.artifact));
    if (candidates.length === 0) return undefined;
    return structuredClone(candidates[random.weightedIndex(candidates.map((candidate) => candidate.weight))] as ArtifactEntry);
  }

  snapshot(): ArtifactStoreSnapshot {
    return structuredClone({ nextId: this.nextId, entries: this.entries });
  }

  restore(snapshot: ArtifactStoreSnapshot): void {
    const parsed = SnapshotSchema.parse(snapshot);
    if (parsed.entries.length > this.capacity) {
      throw new InvalidInputError("snapshot.entries", `at most ${this.capacity} entries (this store's capacity)`, parsed.entries.length);
    }
    if (parsed.entries.some((entry) => entry.id >= parsed.nextId)) {
      throw new InvalidInputError("snapshot.nextId", "a number above every entry's id", parsed.nextId);
    }
    this.entries = parsed.entries;
    this.nextId = parsed.nextId;
  }
}

function assertWeight(weight: number): void {
  if (!(weight >= 0) || !Number.isFinite(weight)) throw new InvalidInputError("weight", "a finite number ≥ 0", weight);
}
