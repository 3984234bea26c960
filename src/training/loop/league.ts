import { z } from "zod";
import { deriveStream } from "../../core/random/random-stream.js";
import type { LeagueConfiguration } from "./league-configuration.js";

export const LeagueSnapshotSchema = z.object({ versions: z.array(z.number().int().min(0)) });
export type LeagueSnapshot = z.infer<typeof LeagueSnapshotSchema>;

/** A rollout's opponent: the policy being trained, or the snapshot of that version. */
export type LeagueOpponent = "current" | number;

/**
 * The opponents a `league` run draws from: the policy versions it has kept,
 * oldest first, starting with version 0 (the initial policy). A rollout's draw
 * depends only on the run seed, its rollout id and the versions kept, never on
 * the order rollouts finish in, so a resumed run (versions restored, rollout
 * ids continuing from the arena's counter) draws what the uninterrupted run drew.
 */
export class League {
  private versions: number[] = [0];

  constructor(
    private readonly configuration: LeagueConfiguration,
    private readonly seed: number,
  ) {}

  /** The kept snapshot versions, oldest first. */
  get snapshots(): readonly number[] {
    return this.versions;
  }

  /** Adds a newly synced version; the oldest leaves once the league holds more than `size`. Returns the versions that left. */
  admit(version: number): number[] {
    this.versions.push(version);
    const { size } = this.configuration;
    return size === "all" || this.versions.length <= size ? [] : this.versions.splice(0, this.versions.length - size);
  }

  /** The opponent of rollout `rolloutId`: the current policy with probability `currentShare`, else a kept snapshot, uniformly. */
  draw(rolloutId: string): LeagueOpponent {
    const random = deriveStream(this.seed, "league", rolloutId);
    if (random.next() < this.configuration.currentShare) return "current";
    return random.pick(this.versions);
  }

  snapshot(): LeagueSnapshot {
    return { versions: [...this.versions] };
  }

  restore(snapshot: LeagueSnapshot): void {
    this.versions = [...LeagueSnapshotSchema.parse(snapshot).versions];
  }
}
