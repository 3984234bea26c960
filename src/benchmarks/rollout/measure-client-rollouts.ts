import { Arena, type BatchPlanEntry } from "../../arena/arena.js";
import type { ArtifactStore } from "../../arena/artifact-store.js";
import { walkResults } from "../../arena/walk-results.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { InferenceClient } from "../../core/inference-client.js";
import type { Step } from "../../core/schemas/step.js";

/** What a round of arena rollouts runs: the same on every client a cell compares. */
export interface RolloutWorkload {
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

/**
 * Arena rollouts end to end on a client the caller opened (and disposes):
 * episodes, model calls with logprobs, Step validation, verifiers. The arena's
 * seed is fixed, so every client is asked the same first round.
 */
export async function measureClientRollouts(client: InferenceClient, workload: RolloutWorkload): Promise<ArenaRolloutsMeasurement> {
  const arena = new Arena({ client, seed: 1, concurrency: workload.concurrency });
  for (const { episode, store } of workload.episodes) arena.register(episode, store);
  const round = async () => {
    const requests = arena.getBatch(workload.plan);
    const started = performance.now();
    const results = await arena.generateRollouts(requests);
    const seconds = (performance.now() - started) / 1000;
    const steps = [...walkResults(results)].flatMap((result) => result.rollout.steps);
    const tokens = steps.reduce((sum, step) => sum + step.completionTokenIds.length, 0);
    return { tokensPerSecond: tokens / seconds, steps };
  };
  await round();
  let best: ArenaRolloutsMeasurement = { tokensPerSecond: 0, steps: [] };
  for (let index = 0; index < workload.rounds; index++) {
    const measured = await round();
    best = { tokensPerSecond: Math.max(best.tokensPerSecond, measured.tokensPerSecond), steps: measured.steps };
  }
  return best;
}
