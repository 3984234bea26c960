import type { Arena } from "../../src/arena/arena.js";
import { countKeys, PROPOSE_EPISODE_TYPE, type ProposalTargets, type TargetChoice } from "./proposal-targets.js";

/** Targets drawn uniformly from the proposer's artifact store (every cluster once), by the arena's seeded batch stream. */
export class UniformTargets implements ProposalTargets {
  readonly mode = "uniform";

  constructor(private readonly arena: Arena) {}

  async choose(count: number): Promise<TargetChoice> {
    const requests = this.arena.getBatch([{ episodeType: PROPOSE_EPISODE_TYPE, count }]);
    const clusters = requests.map((request) => String((request.artifact as { cluster?: unknown } | undefined)?.cluster));
    return { requests, reasons: { uniform: count }, targets: countKeys(clusters), messages: [] };
  }

  observe(): void {}

  snapshot(): null {
    // The arena's snapshot holds the batch counter the draws are seeded by.
    return null;
  }

  async dispose(): Promise<void> {}
}
