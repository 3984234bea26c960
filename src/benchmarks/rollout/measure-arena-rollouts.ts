import { Arena, type BatchPlanEntry } from "../../arena/arena.js";
import type { ArtifactStore } from "../../arena/artifact-store.js";
import { walkResults } from "../../arena/walk-results.js";
import type { Episode } from "../../core/episodes/episode.js";
import type { Step } from "../../core/schemas/step.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import type { DecodeMode } from "./decode-settings.js";

export interface ArenaRolloutsOptions {
  /** The engine the rollouts run on: a native-decoder client opened for the measurement and disposed after it. */
  engine: { modelPath: string; sequences: number; threads: number; mode: DecodeMode; contextPerSequence: number };
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
  const { modelPath, sequences, threads, mode, contextPerSequence } = options.engine;
  const client = await LlamaInferenceClient.create({ modelPath, sequences, threads, mode, contextSize: contextPerSequence, decoder: "native" });
  try {
    return await measureOnClient(client, options);
  } finally {
    await client.dispose();
  }
}

async function measureOnClient(client: LlamaInferenceClient, options: ArenaRolloutsOptions): Promise<ArenaRolloutsMeasurement> {
  const arena = new Arena({ client, seed: 1, concurrency: options.concurrency });
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
