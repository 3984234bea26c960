import type { Arena } from "../../arena/arena.js";
import type { Environment } from "../../environments/environment.js";
import { countKeys, type StepRequestChoice, type StepRequests } from "./step-requests.js";

/** The environment's plan drawn uniformly from its artifact stores by the arena's seeded batch stream. */
export class UniformRequests implements StepRequests {
  readonly mode = "uniform";

  constructor(
    private readonly arena: Arena,
    private readonly environment: Environment,
  ) {}

  async choose(): Promise<StepRequestChoice> {
    const requests = this.arena.getBatch(this.environment.plan);
    const clusters = this.environment.clusters;
    if (!clusters) return { requests, reasons: {}, targets: {}, messages: [] };
    // A prompt is counted once, not once per member of its group: the other modes count their decisions, one a prompt.
    const counted = new Set<string>();
    const prompts = requests.filter((request) => {
      if (request.episodeType !== clusters.episodeType) return false;
      if (request.groupId === undefined) return true;
      const first = !counted.has(request.groupId);
      counted.add(request.groupId);
      return first;
    });
    return { requests, reasons: { uniform: prompts.length }, targets: countKeys(prompts.map((request) => clusters.of(request.artifact ?? null))), messages: [] };
  }

  observe(): void {}

  snapshot(): null {
    // The arena's snapshot holds the batch counter the draws are seeded by.
    return null;
  }

  async dispose(): Promise<void> {}
}
