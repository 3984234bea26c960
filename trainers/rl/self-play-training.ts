import { appendFile, mkdir, truncate } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Arena, type ArenaSnapshot } from "../../src/arena/arena.js";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { perWorkerThreads } from "../../src/arena/pool/per-worker-threads.js";
import { WorkerEngineClient } from "../../src/arena/pool/worker-engine-client.js";
import { RUN_FILES } from "../../src/arena/run-directory.js";
import { JsonlAppender } from "../../src/core/jsonl/jsonl-appender.js";
import { RandomStream, deriveStream } from "../../src/core/random/random-stream.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import { arithmeticSelfPlayEpisodeModule, createArithmeticSelfPlayEpisodes } from "../../src/examples/arithmetic/arithmetic-self-play-episodes.js";
import { clusterNames } from "../../src/examples/arithmetic/arithmetic-task.js";
import { heldOutExamples } from "../../src/examples/arithmetic/held-out-examples.js";
import { evaluateArithmetic } from "../../src/examples/arithmetic/evaluate-arithmetic.js";
import { LlamaInferenceClient } from "../../src/inference/llama/llama-inference-client.js";
import { readOptimizerState } from "../checkpoint/read-optimizer-state.js";
import { AdamW } from "../optimizer/adamw.js";
import { Policy } from "../policy/policy.js";
import { exportPolicyModel } from "../sync/export-policy-model.js";
import { syncPolicy } from "../sync/sync-policy.js";
import { assertSameRun } from "./assert-same-run.js";
import { createProposalTargets, openFrontierPrm } from "./create-proposal-targets.js";
import { saveSelfPlayCheckpoint } from "./save-self-play-checkpoint.js";
import type { SelfPlayCheckpoint, SelfPlayEvaluation } from "./self-play-checkpoint.js";
import type { SelfPlayConfiguration } from "./self-play-configuration.js";
import { trainOnBatch } from "./train-on-batch.js";
import { choiceEntropy } from "./choice-entropy.js";
import type { UpdateMetrics } from "./update-metrics.js";

export interface SelfPlayTrainingOptions {
  /** The base model both roles start from. */
  modelPath: string;
  /** Run folder: metrics.jsonl, rollouts.jsonl, policy versions, checkpoints/, final.gguf. */
  directory: string;
  configuration: SelfPlayConfiguration;
  /**
   * Go on with the run in `directory` from this checkpoint of it
   * (`findSelfPlayCheckpoint`) instead of starting one; `modelPath` and
   * `configuration` must be the run's own. metrics.jsonl and rollouts.jsonl are
   * cut back to the checkpoint and the run continues at its next step, as if
   * never stopped.
   */
  resume?: SelfPlayCheckpoint;
  /**
   * Runs the rollouts' episodes in a RolloutPool: `workers` threads (0, the
   * default, runs them in-process) and one shared engine or an engine in each
   * (the cores split among them). A pooled run gives the in-process run's
   * results, so this is not part of the configuration and a run may resume with another.
   */
  pool?: SelfPlayPoolOptions;
  /** Told of every step's metrics (progress display). */
  onStep?: (metrics: SelfPlayStepMetrics) => void;
  onEvaluation?: (evaluation: SelfPlayEvaluation & { n: number }) => void;
}

export interface SelfPlayPoolOptions {
  /** Worker threads, 0 to 256; 0 runs in-process. */
  workers: number;
  /** "shared" (default): the trainer's engine serves every worker. "per-worker": each opens its own and follows the weight syncs. */
  engine?: "shared" | "per-worker";
}

/** One line of metrics.jsonl per step. */
export interface SelfPlayStepMetrics extends UpdateMetrics {
  step: number;
  proposerReward: number;
  solverReward: number;
  /** Share of solver attempts that were right. */
  solveRate: number;
  /** |mean pass rate of valid proposals − target|. */
  passRateGap: number;
  /** Share of proposals that were valid problems of the asked cluster. */
  validProposals: number;
  /** Entropy (nats) of the clusters the proposer's parsed problems fell in: low means it keeps writing one kind. */
  proposerClusterEntropy: number;
  /** Completion tokens sampled per second of rollout. */
  rolloutTokensPerSecond: number;
  rolloutSeconds: number;
  updateSeconds: number;
  syncSeconds: number;
  /** Wall-clock seconds since the run started, time before a resume included and time while killed not. */
  elapsedSeconds: number;
  /** How the step's proposals got their target clusters (see TargetChoice). */
  frontier: SelfPlayFrontierMetrics;
}

/** The targets of one step: counts by rule (`uniform`, `prm-weighted`, `fallback:<kind>`) and by cluster, and each rule's first message. */
export interface SelfPlayFrontierMetrics {
  reasons: Record<string, number>;
  targets: Record<string, number>;
  messages: string[];
}

/**
 * Proposer/solver self-play on arithmetic with one policy in both roles. The
 * loop reads top to bottom: rollout → credit → update → sync → frontier → log
 * → checkpoint, with a held-out evaluation every few steps and the final
 * weights in `final.gguf`; every rollout goes to rollouts.jsonl. Every step
 * ends with a checkpoint, so a killed run resumes (`resume`) and ends as the
 * uninterrupted run would.
 */
export async function runSelfPlayTraining(options: SelfPlayTrainingOptions): Promise<{ finalModel: string; evaluations: SelfPlayEvaluation[] }> {
  const { configuration, directory, resume } = options;
  if (resume) assertSameRun(directory, resume, options.modelPath, configuration);
  // Before any file or model: a PRM that does not load leaves no half-started run behind.
  const prm = await openFrontierPrm(configuration.frontier);
  await mkdir(join(directory, "policies"), { recursive: true });
  const metricsPath = join(directory, RUN_FILES.metrics);
  const rolloutsPath = join(directory, RUN_FILES.rollouts);
  if (resume) {
    // What the killed run logged after its checkpoint (a torn last line too) is logged again below, once.
    await truncate(metricsPath, resume.metricsBytes);
    // Created first when the checkpoint predates rollouts.jsonl.
    await appendFile(rolloutsPath, "");
    await truncate(rolloutsPath, resume.rolloutsBytes);
  }
  const weightsPath = resume ? resolve(directory, resume.weights.path) : options.modelPath;
  const { workers, engine = "shared" } = options.pool ?? { workers: 0 };
  // An engine in each worker is reached through a WorkerEngineClient: its swapWeights carries every sync to them.
  const client =
    workers > 0 && engine === "per-worker"
      ? await WorkerEngineClient.create({ modelPath: weightsPath, sequences: configuration.sequences, threads: perWorkerThreads(workers) })
      : await LlamaInferenceClient.create({ modelPath: weightsPath, sequences: configuration.sequences });
  const policy = await Policy.load({ modelPath: weightsPath });
  const optimizer = new AdamW(configuration.trainer.optimizer);
  const episodes = { solvers: configuration.solvers, reward: { kind: "gaussian" as const, target: configuration.targetPassRate, sigma: configuration.targetSigma } };
  const arena = new Arena({
    client,
    seed: configuration.seed,
    concurrency: configuration.proposals,
    samplerDefaults: { temperature: configuration.temperature },
    ...(workers > 0 && { pool: { workers, engine, episodes: arithmeticSelfPlayEpisodeModule(episodes) } }),
  });
  const clusters = ArtifactStore.of(clusterNames().map((cluster) => ({ cluster })));
  for (const episode of createArithmeticSelfPlayEpisodes(episodes)) arena.register(episode, episode.type === "arithmetic-propose" ? clusters : undefined);
  const targets = createProposalTargets(configuration, arena, prm, resume?.frontier);
  const metrics = await JsonlAppender.open(metricsPath);
  const rollouts = await JsonlAppender.open(rolloutsPath);
  const heldOut = heldOutExamples(configuration.evaluateProblems);
  const evaluations: SelfPlayEvaluation[] = [...(resume?.evaluations ?? [])];
  const started = performance.now() - 1000 * (resume?.elapsedSeconds ?? 0);
  const elapsedSeconds = () => (performance.now() - started) / 1000;
  const evaluate = async (step: number) => {
    const { accuracy, n } = await evaluateArithmetic(client, heldOut);
    const evaluation = { step, heldOutAccuracy: accuracy, elapsedSeconds: elapsedSeconds() };
    evaluations.push(evaluation);
    await metrics.append({ ...evaluation, n });
    options.onEvaluation?.({ ...evaluation, n });
  };
  // One stream for the whole run, carried across a resume in the checkpoint.
  const minibatchRandom = resume ? RandomStream.fromState(resume.minibatchRandom) : deriveStream(configuration.seed, "minibatches");
  const checkpoint = (step: number, weights: string) =>
    saveSelfPlayCheckpoint({
      directory,
      step,
      modelPath: options.modelPath,
      configuration,
      weightsPath: weights,
      policy,
      optimizer,
      arena,
      minibatchRandom,
      metricsPath,
      rolloutsPath,
      frontier: targets.snapshot(),
      evaluations,
      elapsedSeconds: elapsedSeconds(),
    });
  try {
    if (resume) {
      // Resume: the state after step k, as the killed run had it; Steps sampled from here carry policy version k.
      if (resume.step > 0) await client.swapWeights({ policyVersion: resume.step, modelPath: weightsPath });
      if (resume.optimizer) optimizer.restore(await readOptimizerState(resolve(directory, resume.optimizer.path), policy.variables));
      arena.restore(resume.arena as ArenaSnapshot);
    } else {
      await evaluate(0);
      await checkpoint(0, options.modelPath);
    }
    for (let step = (resume?.step ?? 0) + 1; step <= configuration.steps; step++) {
      // Rollout: proposals for the target clusters (uniform, or the frontier's picks), each with its solver attempts.
      const rolloutStarted = performance.now();
      const choice = await targets.choose(configuration.proposals);
      const results = await arena.generateRollouts(choice.requests);
      const rolloutSeconds = (performance.now() - rolloutStarted) / 1000;

      // Credit: GRPO within each problem's solver group, a per-role baseline for the proposer.
      const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), step);

      // Update.
      const update = await trainOnBatch(batch.records, { policy, optimizer, configuration: configuration.trainer, random: () => minibatchRandom.next() });

      // Sync: the next rollouts come from the updated weights.
      const sync = await syncPolicy({ policy, client, directory: join(directory, "policies"), version: step });

      // Frontier: each cluster's solve rates this step, before the next step's targets are chosen.
      targets.observe(results);

      // Log.
      await rollouts.appendMany(results);
      const line: SelfPlayStepMetrics = {
        step,
        ...update,
        ...rolloutSummary(results, configuration.targetPassRate),
        rolloutTokensPerSecond: batch.stats.completionTokens / rolloutSeconds,
        rolloutSeconds,
        updateSeconds: update.elapsedMs / 1000,
        syncSeconds: sync.exportSeconds + sync.swapSeconds,
        elapsedSeconds: elapsedSeconds(),
        frontier: { reasons: choice.reasons, targets: choice.targets, messages: choice.messages },
      };
      await metrics.append(line);
      options.onStep?.(line);
      if (configuration.evaluateEvery > 0 && step % configuration.evaluateEvery === 0 && step < configuration.steps) await evaluate(step);

      // Checkpoint: everything step + 1 starts from (the synced file is its weights), so a run killed from here on resumes there.
      await checkpoint(step, sync.path);
    }
    await evaluate(configuration.steps);
    const finalModel = await exportPolicyModel(policy, join(directory, "final.gguf"));
    return { finalModel, evaluations };
  } finally {
    await metrics.close();
    await rollouts.close();
    await targets.dispose();
    policy.dispose();
    optimizer.dispose();
    await arena.close();
    await client.dispose();
  }
}

function rolloutSummary(results: readonly GenerateResult[], target: number) {
  const clusters: string[] = [];
  let proposerReward = 0;
  let proposals = 0;
  let valid = 0;
  let attempts = 0;
  let solved = 0;
  let gapSum = 0;
  for (const result of results) {
    if (result.outcome.status !== "scored") continue;
    proposals++;
    proposerReward += result.rewards.proposer ?? 0;
    if (typeof result.rollout.artifacts.cluster === "string") clusters.push(result.rollout.artifacts.cluster);
    if (result.rollout.artifacts.verdict !== "valid") continue;
    valid++;
    const rewards = result.children.filter((child) => child.outcome.status === "scored").map((child) => child.rewards.solver ?? 0);
    attempts += rewards.length;
    const passes = rewards.filter((reward) => reward === 1).length;
    solved += passes;
    gapSum += Math.abs(passes / Math.max(rewards.length, 1) - target);
  }
  return {
    proposerReward: proposerReward / Math.max(proposals, 1),
    solverReward: solved / Math.max(attempts, 1),
    solveRate: solved / Math.max(attempts, 1),
    passRateGap: gapSum / Math.max(valid, 1),
    validProposals: valid / Math.max(results.length, 1),
    proposerClusterEntropy: choiceEntropy(clusters),
  };
}
