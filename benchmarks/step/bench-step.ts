import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Arena } from "../../src/arena/arena.js";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { walkResults } from "../../src/arena/walk-results.js";
import { deriveStream } from "../../src/core/random/random-stream.js";
import { ArithmeticProposerEpisode } from "../../src/examples/arithmetic/arithmetic-proposer-episode.js";
import { ArithmeticSolverEpisode } from "../../src/examples/arithmetic/arithmetic-solver-episode.js";
import { clusterNames } from "../../src/examples/arithmetic/arithmetic-task.js";
import { LlamaInferenceClient } from "../../src/inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../src/inference/model-files/bundled-models.js";
import { AdamW } from "../../trainers/optimizer/adamw.js";
import { Policy } from "../../trainers/policy/policy.js";
import { SelfPlayConfigurationSchema } from "../../trainers/rl/self-play-configuration.js";
import { trainOnBatch } from "../../trainers/rl/train-on-batch.js";
import { syncPolicy } from "../../trainers/sync/sync-policy.js";
import type { StepBenchResult, StepTiming } from "./step-bench-result.js";
import { TimedScoringEpisode, type ScoringTimer } from "./timed-scoring-episode.js";

export interface StepBenchOptions {
  /** One step of 4 proposals (a CI check of the output) instead of 3 steps of `selfplay train`'s default 32. */
  quick: boolean;
}

/**
 * RL steps of `selfplay train`'s arithmetic self-play, composed from the same
 * public pieces (arena, credit, trainOnBatch, syncPolicy) with its default
 * configuration on the bundled base, each phase timed on its own. Verifiers
 * run inside `generateRollouts`; a wrapper times them so scoring is reported apart.
 */
export async function benchStep(options: StepBenchOptions): Promise<StepBenchResult> {
  const configuration = SelfPlayConfigurationSchema.parse(options.quick ? { proposals: 4 } : {});
  const modelPath = bundledArithmeticBase();
  const folder = await mkdtemp(join(tmpdir(), "selfplay-bench-step-"));
  const client = await LlamaInferenceClient.create({ modelPath, sequences: configuration.sequences });
  const policy = await Policy.load({ modelPath });
  const optimizer = new AdamW(configuration.trainer.optimizer);
  const scoring: ScoringTimer = { seconds: 0 };
  const reward = { kind: "gaussian" as const, target: configuration.targetPassRate, sigma: configuration.targetSigma };
  const arena = new Arena({ client, seed: configuration.seed, concurrency: configuration.proposals, samplerDefaults: { temperature: configuration.temperature } })
    .register(new TimedScoringEpisode(new ArithmeticProposerEpisode({ solvers: configuration.solvers, reward }), scoring), ArtifactStore.of(clusterNames().map((cluster) => ({ cluster }))))
    .register(new TimedScoringEpisode(new ArithmeticSolverEpisode(), scoring));
  const minibatchRandom = deriveStream(configuration.seed, "minibatches");
  const steps: StepTiming[] = [];
  try {
    for (let step = 1; step <= (options.quick ? 1 : 3); step++) {
      scoring.seconds = 0;
      const started = performance.now();
      // Rollout and scoring: proposals for uniformly drawn clusters, each with its solver attempts, scored as they end.
      const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "arithmetic-propose", count: configuration.proposals }]));
      const rolledOut = performance.now();
      // Credit: GRPO within each problem's solver group, a per-role baseline for the proposer.
      const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), step);
      const credited = performance.now();
      // Update.
      const update = await trainOnBatch(batch.records, { policy, optimizer, configuration: configuration.trainer, random: () => minibatchRandom.next() });
      const updated = performance.now();
      // Sync: the next step's rollouts come from the updated weights.
      await syncPolicy({ policy, client, directory: folder, version: step });
      const synced = performance.now();
      steps.push({
        step,
        rolloutSeconds: (rolledOut - started) / 1000 - scoring.seconds,
        scoringSeconds: scoring.seconds,
        creditSeconds: (credited - rolledOut) / 1000,
        updateSeconds: (updated - credited) / 1000,
        syncSeconds: (synced - updated) / 1000,
        totalSeconds: (synced - started) / 1000,
        rollouts: [...walkResults(results)].length,
        completionTokens: batch.stats.completionTokens,
        trainedRecords: update.trainedRecords,
        trainedTokens: update.trainedTokens,
      });
    }
    return {
      benchmark: "step",
      quick: options.quick,
      model: modelPath,
      proposals: configuration.proposals,
      solvers: configuration.solvers,
      sequences: configuration.sequences,
      backend: policy.backend.backend,
      steps,
    };
  } finally {
    policy.dispose();
    optimizer.dispose();
    await client.dispose();
    await rm(folder, { recursive: true, force: true });
  }
}
