// A RolloutPool worker (piscina loads this file's compiled JavaScript): runs
// episode protocols, environment steps and verifiers; model calls go to the
// main thread's engine, or to this worker's own with `engine: "per-worker"`.
import { setMaxListeners } from "node:events";
import { workerData } from "node:worker_threads";
import { EpisodeModuleError, RolloutPoolError } from "./errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { EpisodeRegistry } from "../episode-registry.js";
import { runEpisode, type EpisodeRuntime } from "../episode-runner.js";
import { ModelGateway } from "../model-gateway.js";
import { loadEpisodeModule } from "./episode-module.js";
import { RolloutTaskSchema, RolloutWorkerDataSchema, type DescribeResult, type RolloutTask } from "./pool-messages.js";
import { PortInferenceClient } from "./port-inference-client.js";
import { ReportingEngineClient } from "./reporting-engine-client.js";
import { stageReportingEpisode } from "./stage-reporting-episode.js";
import { SyncedEngineClient } from "./synced-engine-client.js";
import { WorkerTaskChannel } from "./worker-task-channel.js";

const data = RolloutWorkerDataSchema.parse(workerData);
/** Every task of this worker belongs to one arena, so one abort serves them all. */
const abort = new AbortController();
// Every model call the worker's episodes have in flight listens to it: many listeners are the design, not a leak.
setMaxListeners(0, abort.signal);
/** The channel of each running top-level rollout, by rollout id: where its stages are reported. */
const channels = new Map<string, WorkerTaskChannel>();
let registry: Promise<EpisodeRegistry> | undefined;
let engine: Promise<SyncedEngineClient> | undefined;

export default async function runTask(input: unknown): Promise<GenerateResult | DescribeResult> {
  const task = RolloutTaskSchema.parse(input);
  if (task.kind === "describe") return describe();
  return run(task);
}

async function describe(): Promise<DescribeResult> {
  try {
    return { ok: true, episodeTypes: (await loadRegistry()).types() };
  } catch (error) {
    return { ok: false, problem: error instanceof EpisodeModuleError ? error.problem : (error as Error).message };
  }
}

async function run(task: Extract<RolloutTask, { kind: "run" }>): Promise<GenerateResult> {
  const channel = new WorkerTaskChannel(task.port, () => abort.abort());
  channels.set(task.placement.rolloutId, channel);
  try {
    const runtime = await runtimeFor(channel);
    // The timeout starts now: loading the episode module and opening an engine are not the episode's time.
    channel.reportStarted();
    return await runEpisode(runtime, task.request, task.placement);
  } finally {
    channels.delete(task.placement.rolloutId);
    channel.close();
  }
}

function loadRegistry(): Promise<EpisodeRegistry> {
  registry ??= loadEpisodeModule(data.episodes).then((episodes) => {
    const loaded = new EpisodeRegistry();
    for (const episode of episodes) {
      loaded.register(stageReportingEpisode(episode, (rolloutId, stage) => channels.get(rolloutId)?.reportStage(stage)));
    }
    return loaded;
  });
  return registry;
}

async function runtimeFor(channel: WorkerTaskChannel): Promise<EpisodeRuntime> {
  const remote = (target: "policy" | "judge") =>
    new PortInferenceClient(channel, target, target === "policy" ? data.policyCapabilities : data.judgeCapabilities);
  let policy: InferenceClient = remote("policy");
  let judge: InferenceClient = remote("judge");
  let { policyCapabilities, judgeCapabilities } = data;
  if (data.engine.kind === "per-worker") {
    const { options, versionCell, maxStaleness, judgeOnEngine } = data.engine;
    // The weights are fetched over whichever episode's port is open: one is, since an episode is asking.
    const fetchWeights = () => {
      const [open] = channels.values();
      if (!open) throw new RolloutPoolError("a worker engine asked for weights with no episode running");
      return open.weights();
    };
    engine ??= SyncedEngineClient.open({ engine: options, versionCell, maxStaleness, fetchWeights });
    policy = new ReportingEngineClient(await engine, channel);
    policyCapabilities = policy.capabilities;
    if (judgeOnEngine) [judge, judgeCapabilities] = [policy, policyCapabilities];
  }
  return {
    seed: data.seed,
    registry: await loadRegistry(),
    policy: new ModelGateway(policy, abort.signal),
    policyCapabilities,
    judge: new ModelGateway(judge, abort.signal),
    judgeCapabilities,
    judgeIsPolicy: data.judgeIsPolicy,
    samplerDefaults: data.samplerDefaults,
    signal: abort.signal,
  };
}
