import { Arena, type BatchPlanEntry } from "../../src/arena/arena.js";
import type { ArtifactStore } from "../../src/arena/artifact-store.js";
import { walkResults } from "../../src/arena/walk-results.js";
import type { Episode } from "../../src/core/episodes/episode.js";
import type { InferenceClient } from "../../src/core/inference-client.js";
import type { Step } from "../../src/core/schemas/step.js";

export interface ArenaRolloutsOptions {
  client: InferenceClient;
  /** The episodes the plan asks for, with their artifact stores. */
  episodes: ReadonlyArray<{ episode: Episode; store?: ArtifactStore }>;
  /** One round's requests. */
  plan: readonly BatchPlanEntry[];
  /** Top-level episodes in flight at once. */
  concurrency: number;
  /** Timed rounds after one untimed warm-up; the fastest counts (other work on the machine only slows a round down). */
  rounds: number;
}

export interface ArenaRolloutsMeasurement {
  /** Completion tokens of every Step (sub-episodes included) per wall-clock second of `generateRollouts`. */
  tokensPerSecond: number;
  /** The Steps of the last round, for the prompt and completion lengths the other measurements copy. */
  steps: Step[];
}

/** Arena rollouts end to end: episodes, model calls with logprobs, Step validation, verifiers. */
export async function measureArenaRollouts(options: ArenaRolloutsOptions): Promise<ArenaRolloutsMeasurement> {
  const arena = new Arena({ client: options.client, seed: 1, concurrency: options.concurrency });
  for (const { episode, store } of options.episodes) arena.register(episode, store);
  const round = async () => {
    const requests = arena.getBatch(options.plan);
    const started = performance.now();
    const results = await arena.generateRollouts(requests);
    const seconds = (performance.now() - started) / 1000;
    const steps = [...walkResults(results)].flatMap((result) => result.rollout.steps);
    const tokens = steps.reduce((sum, step) => sum + step.completionTokenIds.length, 0);
    return { tokensPerSecond: tokens / seconds, steps };
  };
  await round();
  let best: ArenaRolloutsMeasurement = { tokensPerSecond: 0, steps: [] };
  for (let index = 0; index < options.rounds; index++) {
    const measured = await round();
    best = { tokensPerSecond: Math.max(best.tokensPerSecond, measured.tokensPerSecond), steps: measured.steps };
  }
  return best;
}
