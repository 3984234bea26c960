import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Arena } from "../../arena/arena.js";
import { loadEpisodeModule } from "../../arena/pool/episode-module.js";
import { walkResults } from "../../arena/walk-results.js";
import type { JsonValue } from "../../core/json.js";
import { loadEnvironment } from "../../tasks/built-in-environments.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { createTrainer } from "../../training/trainer/create-trainer.js";
import type { TrainerBackend } from "../../training/trainer/trainer-checkpoint.js";
import { openFrozenPolicies } from "../../training/loop/open-frozen-policies.js";
import { TrainingConfigurationSchema } from "../../training/loop/training-configuration.js";
import { withTrainingDefaults } from "../../training/loop/with-training-defaults.js";
import type { StepBenchResult, StepTiming } from "./step-bench-result.js";
import { TimedScoringEpisode, type ScoringTimer } from "./timed-scoring-episode.js";

export interface StepBenchOptions {
  /** One step with every plan entry cut to 4 prompts (a CI check of the output) instead of 3 full steps. */
  quick: boolean;
  /** The environment (`--env`): a built-in name or a module path. Default `arithmetic`, `selfplay train`'s main job. */
  environment?: string;
  /** The trainer backend. Default `tfjs`. */
  trainer?: TrainerBackend;
  /** The base model. Default the bundled arithmetic base. */
  modelPath?: string;
}

/**
 * RL steps of `selfplay train` on an environment, composed from the same
 * public pieces (arena, credit, Trainer.update, Trainer.sync) with the
 * default configuration, each phase timed on its own. Verifiers run inside
 * `generateRollouts`; a wrapper times them so scoring is reported apart.
 */
export async function benchStep(options: StepBenchOptions): Promise<StepBenchResult> {
  const environmentName = options.environment ?? "arithmetic";
  const environment = await loadEnvironment(environmentName, TrainingConfigurationSchema.parse({}).environment as JsonValue);
  const configuration = TrainingConfigurationSchema.parse(withTrainingDefaults(environment, {}));
  const plan = environment.plan.map((entry) => (options.quick ? { ...entry, count: Math.min(entry.count, 4) } : entry));
  const modelPath = options.modelPath ?? bundledArithmeticBase();
  const folder = await mkdtemp(join(tmpdir(), "selfplay-bench-step-"));
  const client = await LlamaInferenceClient.create({ modelPath, sequences: configuration.sequences });
  const backend = options.trainer ?? "tfjs";
  const trainer = await createTrainer(backend, { modelPath, configuration: configuration.trainer, syncDirectory: folder, seed: configuration.seed, lora: configuration.lora });
  const scoring: ScoringTimer = { seconds: 0 };
  const prompts = plan.reduce((sum, entry) => sum + entry.count * (entry.groupSize ?? 1), 0);
  // A role the environment binds to a frozen policy plays on its own engine, as in train().
  const frozen = await openFrozenPolicies(environment.frozenRoles ?? {}, modelPath, configuration.sequences);
  const arena = new Arena({ client, roleClients: frozen.roleClients, seed: configuration.seed, concurrency: prompts, samplerDefaults: { temperature: configuration.temperature, ...environment.samplerDefaults } });
  for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(new TimedScoringEpisode(episode, scoring), environment.stores[episode.type]);
  const steps: StepTiming[] = [];
  try {
    for (let step = 1; step <= (options.quick ? 1 : 3); step++) {
      scoring.seconds = 0;
      const started = performance.now();
      // Rollout and scoring: the environment's plan, drawn uniformly, scored as episodes end.
      const results = await arena.generateRollouts(arena.getBatch(plan));
      const rolledOut = performance.now();
      // Credit.
      const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), step);
      const credited = performance.now();
      // Update.
      const update = await trainer.update(batch);
      const updated = performance.now();
      // Sync: the next step's rollouts come from the updated weights.
      await trainer.sync(client, step);
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
    return { benchmark: "step", quick: options.quick, model: modelPath, environment: environment.name, plan, sequences: configuration.sequences, trainer: backend, steps };
  } finally {
    await trainer.dispose();
    await arena.close();
    await frozen.dispose();
    await client.dispose();
    await rm(folder, { recursive: true, force: true });
  }
}
