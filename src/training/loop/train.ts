import { appendFile, mkdir, truncate } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Arena, type ArenaSnapshot } from "../../arena/arena.js";
import { perWorkerThreads } from "../../arena/pool/per-worker-threads.js";
import { WorkerEngineClient } from "../../arena/pool/worker-engine-client.js";
import { RUN_FILES } from "../../arena/run-directory.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import type { JsonObject } from "../../core/json.js";
import { JsonlAppender } from "../../core/jsonl/jsonl-appender.js";
import { parseInput } from "../../core/parse-input.js";
import { judgingFigures } from "../../core/verifiers/judging-figures.js";
import type { Environment } from "../../environments/environment.js";
import { environmentEpisodes } from "../../environments/environment-episodes.js";
import { evaluateEnvironment } from "../../environments/evaluate-environment.js";
import { parseEnvironmentEvaluation } from "../../environments/parse-environment-evaluation.js";
import { deviceRecord, type DeviceRecord } from "../../inference/device/device-record.js";
import type { ResolvedDevice } from "../../inference/device/resolve-device.js";
import type { EngineSettings } from "../../inference/llama/engine-settings.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { OpenAICompatibleClient } from "../../inference/server/openai-compatible-client.js";
import type { OpenAICompatibleClientOptions } from "../../inference/server/server-client-options.js";
import { ServerCapabilityError } from "../../inference/errors/index.js";
import { findDevice } from "../../inference/native/open-native-device.js";
import { createTrainer } from "../trainer/create-trainer.js";
import type { Trainer } from "../trainer/trainer.js";
import { assertBackendTakesThreads } from "../trainer/update-threads.js";
import type { TrainerBackend } from "../trainer/trainer-checkpoint.js";
import { openFrontierPrm } from "../../frontier/open-frontier-prm.js";
import { assertFrontierFits } from "./assert-frontier-fits.js";
import { RolloutsFailedError, TrainingDivergedError } from "./errors/index.js";
import { drawStepRollouts } from "./draw-step-rollouts.js";
import { openFrozenPolicies } from "./open-frozen-policies.js";
import { League } from "./league.js";
import { opponentResults } from "./opponent-results.js";
import { LeagueEngines } from "./league-engines.js";
import { roleRewards } from "./role-rewards.js";
import { rolloutDrops } from "./rollout-drops.js";
import { rolloutFailures } from "./rollout-failures.js";
import { openStepRequests } from "./open-step-requests.js";
import type { TrainingCheckpoint, TrainingEvaluation } from "./training-checkpoint.js";
import { assertSameTrainingRun, saveTrainingCheckpoint } from "./training-checkpoint-files.js";
import { TrainingConfigurationSchema, type TrainingConfiguration, type TrainingConfigurationInput } from "./training-configuration.js";
import type { TrainingStepMetrics } from "./training-step-metrics.js";
import { withTrainingDefaults } from "./with-training-defaults.js";
import { prunePolicies } from "./prune-policies.js";
import { writeTrainingReport, type TrainingReport } from "../reports/write-training-report.js";
import { defaultTrainerBackend } from "../trainer/default-trainer-backend.js";
import { openMetricsReporters, type ReportTarget } from "../reports/metrics-reporters.js";

export interface TrainOptions {
  /** The task: its episodes, data, step plan, clusters, evaluation (`createArithmeticEnvironment()`, `loadEnvironment(…)`). */
  environment: Environment;
  /** Where a user's environment module was loaded from (recorded in checkpoints). */
  environmentModule?: string;
  /** The base model (llama or qwen2 GGUF); never modified. */
  modelPath: string;
  /** Run folder: metrics.jsonl, rollouts.jsonl, policies/, checkpoints/, final.gguf (or final.lora.gguf). */
  directory: string;
  configuration?: TrainingConfigurationInput;
  /** The backend to create (default, as the CLI's: `ggml` when the native addon is built, else `tfjs`), or a Trainer made by hand whose sync folder is `<directory>/policies`. */
  trainer?: TrainerBackend | Trainer;
  /** Go on from this checkpoint of the run in `directory` (`findTrainingCheckpoint`); model, environment and configuration must be the run's own. */
  resume?: TrainingCheckpoint;
  /** Runs the episodes in a RolloutPool (`workers` threads; 0, the default, in-process). Changes speed, not results. */
  pool?: { workers: number; engine?: "shared" | "per-worker" };
  /** Judges (verifiers' `context.judge`) run on this model instead of the policy. */
  judgeModelPath?: string;
  /**
   * Rollouts on servers instead of in this process: llama-server or vLLM
   * endpoints serving `modelPath` (`OpenAICompatibleClient`). Each step's new
   * weights reach every endpoint (vLLM: a runtime LoRA; llama-server: a router
   * preset). Judges and frozen opponents still run here.
   */
  server?: Omit<OpenAICompatibleClientOptions, "modelPath">;
  /**
   * Where the metrics also go: `csv` (metrics.csv, a row per step) and `tensorboard` (event files in tensorboard/);
   * metrics.jsonl is always written (`jsonl`), since checkpoints and resume read it. A resumed run appends: rows of
   * steps after its checkpoint that the killed run had written appear again.
   */
  reportTo?: readonly ReportTarget[];
  /** Told of every step's metrics (progress display). */
  onStep?: (metrics: TrainingStepMetrics) => void;
  /** Told each time one of a step's top-level episodes ends: `done` of `total` (a progress bar); `total` grows when dynamic sampling draws again. */
  onRolloutProgress?: (progress: { step: number; done: number; total: number }) => void;
  onEvaluation?: (evaluation: TrainingEvaluation) => void;
  /**
   * Told, once the learner's engine is open, which device the run's models are on and why (`describeDevice`), and
   * the engine's context and decode threads (`describeEngineSettings`; absent for per-worker engines, which open later).
   */
  onDevice?: (device: ResolvedDevice, engine?: EngineSettings) => void;
}

export interface TrainResult {
  /** The final policy: a full model GGUF or a LoRA adapter over the base, both loadable by llama.cpp. */
  finalModel: string;
  evaluations: TrainingEvaluation[];
  configuration: TrainingConfiguration;
  /** The device the learner's engine (and the ggml trainer) ran on. */
  device: DeviceRecord;
  /** CPU threads of the update (the ggml trainer); undefined for tfjs. */
  trainerThreads: number | undefined;
  /** What report.json holds (written with report.svg beside the run's other files). */
  report: TrainingReport;
}

/**
 * Trains a policy on any environment. One flat loop: rollout → credit →
 * update → sync → frontier → log → checkpoint, a held-out evaluation every
 * `evaluateEvery` steps when the environment has one (under a league, where
 * it plays opponents, against the league's snapshots too), and the final weights
 * in `final.gguf` (`final.lora.gguf` for an adapter). Every step ends with a
 * checkpoint, so a killed run resumes (`resume`) and ends as the
 * uninterrupted run would.
 */
export async function train(options: TrainOptions): Promise<TrainResult> {
  const { environment, directory, resume } = options;
  const configuration = parseInput(TrainingConfigurationSchema, withTrainingDefaults(environment, options.configuration ?? {}), { fieldName: (path) => `configuration.${path.map(String).join(".")}` });
  if (resume) assertSameTrainingRun(directory, resume, { modelPath: options.modelPath, environment: environment.name, configuration });
  assertFrontierFits(environment, configuration);
  // A backend that cannot take the update's thread count refuses it here, before any file or model.
  // The CLI's default too: ggml when the native addon is built (and the algorithm allows it), else tfjs.
  const backend = typeof options.trainer === "object" ? undefined : (options.trainer ?? (await defaultTrainerBackend(configuration.trainer)).backend);
  if (backend !== undefined) assertBackendTakesThreads(backend, configuration.trainer.threads, "configuration.trainer.threads");
  const { workers, engine = "shared" } = options.pool ?? { workers: 0 };
  const { opponents, frozenRoles } = resolveOpponents(environment, configuration.opponents);
  if (Object.keys(frozenRoles).length > 0 && workers > 0) {
    // Pool workers send every role's calls to the learner: a frozen opponent would silently be the policy being trained.
    throw new InvalidInputError("pool.workers", `0 (--workers 0): the ${environment.name} environment binds roles to frozen policies, which run in-process`, workers);
  }
  // Before any file or model: a PRM that does not load, or a frontier without clusters, leaves no half-started run behind.
  const prm = await openFrontierPrm(configuration.frontier);
  const episodes = await environmentEpisodes(environment, options.environmentModule ?? environment.name);
  await mkdir(join(directory, "policies"), { recursive: true });
  const metricsPath = join(directory, RUN_FILES.metrics);
  const rolloutsPath = join(directory, RUN_FILES.rollouts);
  if (resume) {
    // What the killed run logged after its checkpoint (a torn last line too) is logged again below, once.
    await truncate(metricsPath, resume.metricsBytes);
    await appendFile(rolloutsPath, "");
    await truncate(rolloutsPath, resume.rolloutsBytes);
  }
  // An environment whose prompts outgrow the model's default context asks for more.
  const contextSize = environment.contextSize === undefined ? {} : { contextSize: environment.contextSize };
  const { device: requestedDevice } = configuration;
  if (options.server !== undefined && workers > 0 && engine === "per-worker") {
    throw new InvalidInputError("pool.engine", `"shared" (--pool-engine shared) with servers: the workers send their calls to the fleet's client`, engine);
  }
  const client: InferenceClient =
    options.server !== undefined
      ? await openTrainableServerClient({ ...options.server, modelPath: options.modelPath })
      : workers > 0 && engine === "per-worker"
      ? await WorkerEngineClient.create({ modelPath: options.modelPath, sequences: configuration.sequences, threads: perWorkerThreads(workers), device: requestedDevice, ...contextSize })
      : await LlamaInferenceClient.create({ modelPath: options.modelPath, sequences: configuration.sequences, device: requestedDevice, ...contextSize });
  // Per-worker engines open in their threads: the device they resolve to is the one this process's ggml resolves.
  const device = client instanceof LlamaInferenceClient ? client.device : await findDevice(requestedDevice);
  options.onDevice?.(device, client instanceof LlamaInferenceClient ? client.settings : undefined);
  const judgeClient =
    options.judgeModelPath === undefined ? undefined : await LlamaInferenceClient.create({ modelPath: options.judgeModelPath, sequences: configuration.sequences, device: requestedDevice, ...contextSize });
  // Frozen opponents: their own engines, never synced, their Steps never trained on.
  const frozen = await openFrozenPolicies(opponents === "frozen" ? frozenRoles : {}, options.modelPath, configuration.sequences, environment.contextSize, requestedDevice);
  // A league's opponents: a snapshot's engine, or the learner's own client, drawn per rollout; their Steps never trained on either.
  const league = opponents === "league" ? new League(configuration.league, configuration.seed) : undefined;
  if (league && resume?.league) league.restore(resume.league);
  const leagueEngines = new LeagueEngines({ modelPath: options.modelPath, policies: join(directory, "policies"), sequences: configuration.sequences, device: requestedDevice, ...contextSize });
  const leagueRoles = Object.keys(frozenRoles);
  const trainer =
    typeof options.trainer === "object"
      ? options.trainer
      : await createTrainer(backend ?? "tfjs", {
          modelPath: options.modelPath,
          ...(configuration.weights && { weights: configuration.weights }),
          lora: configuration.lora,
          configuration: configuration.trainer,
          syncDirectory: join(directory, "policies"),
          seed: configuration.seed,
          device: requestedDevice,
        });
  const plannedPrompts = environment.plan.reduce((sum, entry) => sum + entry.count * (entry.groupSize ?? 1), 0);
  const arena = new Arena({
    client,
    ...(judgeClient && { judgeClient }),
    roleClients: league ? Object.fromEntries(leagueRoles.map((roleId) => [roleId, client])) : frozen.roleClients,
    ...(league && {
      roleClientsFor: (rolloutId: string) => {
        const opponent = league.draw(rolloutId);
        const served = opponent === "current" ? client : leagueEngines.client(opponent);
        return Object.fromEntries(leagueRoles.map((roleId) => [roleId, served]));
      },
    }),
    seed: configuration.seed,
    concurrency: configuration.concurrency ?? plannedPrompts,
    samplerDefaults: { temperature: configuration.temperature, ...environment.samplerDefaults },
    ...(workers > 0 && { pool: { workers, engine, episodes: environment.episodes } }),
  });
  for (const episode of episodes) arena.register(episode, environment.stores[episode.type]);
  const trainableRoles = new Set(episodes.flatMap((episode) => episode.roles.filter((role) => role.trainable).map((role) => JSON.stringify([episode.type, role.id]))));
  const isTrainedRole = (episodeType: string, roleId: string) => trainableRoles.has(JSON.stringify([episodeType, roleId])) && !Object.hasOwn(frozenRoles, roleId);
  const requests = openStepRequests({ environment, arena, frontier: configuration.frontier, prm, seed: configuration.seed, ...(resume && { snapshot: resume.frontier }) });
  const metrics = await JsonlAppender.open(metricsPath);
  const rollouts = await JsonlAppender.open(rolloutsPath);
  const reporters = openMetricsReporters(directory, options.reportTo ?? []);
  const evaluations: TrainingEvaluation[] = [...(resume?.evaluations ?? [])];
  const started = performance.now() - 1000 * (resume?.elapsedSeconds ?? 0);
  const elapsedSeconds = () => (performance.now() - started) / 1000;
  const evaluate = async (step: number) => {
    if (!environment.evaluate) return;
    const source = options.environmentModule ?? environment.name;
    // A league's snapshots are the evaluation's opponents, all but the current version: that one is the policy itself.
    const opponents =
      league && environment.evaluatesOpponents === true ? league.snapshots.filter((version) => version !== client.policyVersion).map((version) => ({ name: `v${version}`, client: leagueEngines.client(version) })) : [];
    const returned = await evaluateEnvironment(environment, client, source, opponents.length > 0 ? { opponents } : undefined);
    const { heldOutAccuracy, n, figures } = parseEnvironmentEvaluation(returned, source);
    const evaluation = { step, heldOutAccuracy, n, elapsedSeconds: elapsedSeconds(), ...(figures && { figures }) };
    evaluations.push(evaluation);
    await metrics.append(evaluation);
    reporters.evaluation(step, heldOutAccuracy);
    options.onEvaluation?.(evaluation);
  };
  let nonFiniteUpdates = resume?.streaks.nonFiniteUpdates ?? 0;
  let failingSteps = resume?.streaks.failingSteps ?? 0;
  const checkpoint = (step: number) =>
    saveTrainingCheckpoint(directory, trainer, {
      step,
      environment: { name: environment.name, ...(options.environmentModule !== undefined && { module: options.environmentModule }) },
      modelPath: resolve(options.modelPath),
      configuration,
      arena: arena.snapshot() as JsonObject,
      frontier: requests.snapshot(),
      evaluations,
      elapsedSeconds: elapsedSeconds(),
      streaks: { nonFiniteUpdates, failingSteps },
      ...(league && { league: league.snapshot() }),
    });
  try {
    for (const version of league?.snapshots ?? []) await leagueEngines.open(version);
    if (resume) {
      // Resume: the state after step k, as the killed run had it; Steps sampled from here carry policy version k.
      await trainer.restoreCheckpoint(resolve(directory, resume.trainer));
      if (resume.step > 0) await trainer.sync(client, resume.step);
      arena.restore(resume.arena as ArenaSnapshot);
    } else {
      await evaluate(0);
      await checkpoint(0);
    }
    for (let step = (resume?.step ?? 0) + 1; step <= configuration.steps; step++) {
      // Rollout: the environment's plan, its clustered prompts chosen uniformly or by the frontier.
      // With dynamic sampling, drawn again until the step has its informative groups; the frontier observes every draw.
      const rolloutStarted = performance.now();
      const { results, choice, droppedGroups, groups } = await drawStepRollouts({
        requests,
        arena,
        dynamicSampling: configuration.dynamicSampling,
        isTrainedRole,
        ...(environment.adjustStepRewards && { adjustRewards: environment.adjustStepRewards.bind(environment) }),
        now: () => performance.now(),
        onProgress: ({ done, total }) => options.onRolloutProgress?.({ step, done, total }),
      });
      const rolloutSeconds = (performance.now() - rolloutStarted) / 1000;

      // Credit: the arena's assigner (GRPO within groups, a per-role baseline for singletons by default); dropped groups leave the update.
      const built = arena.buildTrainingBatch(results, arena.assignCredit(results), step);
      const batch = { ...built, records: built.records.filter((record) => !droppedGroups.has(record.groupId)) };

      // Update: a step with no trainable record is logged as such (skippedUpdate) and the run goes on.
      const update = await trainer.update(batch);
      nonFiniteUpdates = update.skippedOptimizerSteps > 0 && update.optimizerSteps === 0 ? nonFiniteUpdates + 1 : 0;

      // Sync: the next rollouts come from the updated weights.
      const sync = await trainer.sync(client, step);
      if (league) {
        for (const version of league.admit(step)) await leagueEngines.close(version);
        await leagueEngines.open(step);
      }
      await prunePolicies(join(directory, "policies"), keptPolicies(configuration), step);

      // Log.
      await rollouts.appendMany(results);
      const { rewards, scored, failed, dropped } = roleRewards(results);
      const failures = rolloutFailures(results);
      const judging = judgingFigures(results);
      const line: TrainingStepMetrics = {
        step,
        ...update,
        rewards,
        rollouts: { scored, failed, dropped },
        groups,
        failures: failures.byStage,
        ...(failures.first && { firstFailure: failures.first }),
        drops: rolloutDrops(results),
        rolloutTokensPerSecond: batch.stats.completionTokens / rolloutSeconds,
        rolloutSeconds,
        updateSeconds: update.elapsedMs / 1000,
        syncSeconds: sync.exportSeconds + sync.swapSeconds,
        elapsedSeconds: elapsedSeconds(),
        frontier: { reasons: choice.reasons, targets: choice.targets, messages: choice.messages, ...(choice.groupSizes && { groupSizes: choice.groupSizes }) },
        ...(judging && { judging }),
        ...(leagueRoles.length > 0 && { opponents: opponentResults(results, new Set(leagueRoles)) }),
        environment: environment.summarise?.(results) ?? {},
      };
      await metrics.append(line);
      reporters.step(step, line as unknown as Record<string, unknown>);
      options.onStep?.(line);
      if (configuration.evaluateEvery > 0 && step % configuration.evaluateEvery === 0 && step < configuration.steps) await evaluate(step);

      // A policy whose every minibatch goes non-finite cannot learn again: stop, logged, before checkpointing it.
      if (nonFiniteUpdates >= configuration.maxNonFiniteUpdates) throw new TrainingDivergedError(step, nonFiniteUpdates);

      // Checkpoint: everything step + 1 starts from, so a run killed from here on resumes there.
      // Dropped rollouts (the environment's design) are neither failures nor part of the share that failed.
      failingSteps = failed > 0 && failed >= configuration.maxFailedFraction * (scored + failed) ? failingSteps + 1 : 0;
      await checkpoint(step);

      // Rollouts that keep failing (an episode or verifier throws) would train on what is left, or on nothing: stop, logged and checkpointed.
      if (failingSteps >= configuration.maxFailedSteps && failures.first) throw new RolloutsFailedError(step, failingSteps, failed, scored + failed, failures.first);
    }
    await evaluate(configuration.steps);
    const finalModel = await trainer.exportFinal(join(directory, trainer.weights === "lora" ? "final.lora.gguf" : "final.gguf"));
    const report = await writeTrainingReport({
      directory,
      environment,
      modelPath: options.modelPath,
      trainer: trainer.backend,
      device: deviceRecord(device),
      trainerThreads: trainer.threads,
      configuration,
      evaluations,
      finalModel,
    });
    return { finalModel, evaluations, configuration, device: deviceRecord(device), trainerThreads: trainer.threads, report };
  } finally {
    await metrics.close();
    await rollouts.close();
    await requests.dispose();
    await trainer.dispose();
    await arena.close();
    await judgeClient?.dispose();
    await frozen.dispose();
    await leagueEngines.dispose();
    await client.dispose();
  }
}

/**
 * Who plays the environment's frozen roles: `configuration.opponents`, by
 * default `frozen` when it binds any, else `current`; the roles no credit
 * reaches (none under `current`, whose policy plays and trains every seat).
 */
function resolveOpponents(environment: Environment, requested: TrainingConfiguration["opponents"]) {
  const bound = environment.frozenRoles ?? {};
  const opponents = requested ?? (Object.keys(bound).length > 0 ? "frozen" : "current");
  if (opponents !== "current" && Object.keys(bound).length === 0) {
    throw new InvalidInputError("configuration.opponents", `"current": the ${environment.name} environment binds no role to a frozen policy (give it an opponent, e.g. environment.opponent "base")`, opponents);
  }
  return { opponents, frozenRoles: opponents === "current" ? {} : bound };
}

/**
 * Synced versions kept: `keepPolicies`, and never fewer than the league's snapshots and one more: a run killed
 * after step k's prune resumes from checkpoint k - 1, whose league reopens a version that prune would have deleted.
 */
function keptPolicies(configuration: TrainingConfiguration): number | "all" {
  const { keepPolicies, opponents, league } = configuration;
  if (opponents !== "league" || keepPolicies === "all") return keepPolicies;
  return league.size === "all" ? "all" : Math.max(keepPolicies, league.size + 1);
}

/**
 * A fleet's client, refused for training before the run starts when its
 * logprobs are not the sampled distribution's (the importance weights need
 * them) or when it cannot take new weights (a single-model llama-server).
 */
async function openTrainableServerClient(options: OpenAICompatibleClientOptions): Promise<OpenAICompatibleClient> {
  const client = await OpenAICompatibleClient.create(options);
  const refusal =
    client.trainingRefusal ??
    (client.capabilities.lora ? undefined : "a llama-server started with one model cannot load new weights: start it in router mode (--models-preset FILE) and pass presetFile (--preset-file) and the base preset's name (--server-model)");
  if (refusal !== undefined) {
    await client.dispose();
    throw new ServerCapabilityError(`cannot train on these servers: ${refusal}`);
  }
  return client;
}
