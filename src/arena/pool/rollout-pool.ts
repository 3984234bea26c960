import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { EpisodeModuleError, RolloutPoolError, RolloutTimeoutError, RolloutWorkerCrashedError } from "./errors/index.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { RolloutAbortedError } from "../errors/index.js";
import type { InferenceCapabilities, InferenceClient } from "../../core/inference-client.js";
import type { EpisodeRequest } from "../../core/schemas/episode-request.js";
import type { FailureStage, GenerateResult } from "../../core/schemas/generate-result.js";
import type { SamplerSettings } from "../../core/schemas/sampler-settings.js";
import type { EpisodePlacement } from "../episode-runner.js";
import type { ModelGateway } from "../model-gateway.js";
import { failedResult } from "./failed-result.js";
import { PausableTimeout, SYSTEM_CLOCK, type TimeoutClock } from "./pausable-timeout.js";
import { DescribeResultSchema, type RolloutTask, type RolloutWorkerData } from "./pool-messages.js";
import { compiledSiblingFile } from "./compiled-module-url.js";
import type { RolloutPoolSettings } from "./rollout-pool-options.js";
import { sharedWorkerBalancer } from "./shared-worker-balancer.js";
import { TaskChannel, type TaskChannelServices } from "./task-channel.js";
import { WorkerEngineClient } from "./worker-engine-client.js";

/** What the arena lends its pool. */
export interface RolloutPoolRuntime {
  seed: number;
  samplerDefaults: Omit<SamplerSettings, "seed">;
  client: InferenceClient;
  policy: ModelGateway;
  policyCapabilities: InferenceCapabilities;
  judge: ModelGateway;
  judgeCapabilities: InferenceCapabilities;
  /** The arena has no judge client of its own: with per-worker engines, judges ask the worker's engine. */
  judgeIsPolicy: boolean;
  signal: AbortSignal | undefined;
  /** The arena's top-level concurrency, shared out among the workers unless `episodesPerWorker` says otherwise. */
  concurrency: number;
  clock?: TimeoutClock;
}

/** Accepted work: resolved exactly once, with the worker's result or a recorded failure. */
interface PoolTask {
  request: EpisodeRequest;
  placement: EpisodePlacement;
  resolve: (result: GenerateResult) => void;
}

type Attempt = "first" | "retry";

/** The reason a task's own timeout gives when it kills the task's worker. */
/** Longest wait, after a failed attempt, for the stage reports its worker sent before the failure. */
const STAGE_REPORT_WAIT_MILLISECONDS = 1000;
const TIMED_OUT = Symbol("timed out");

/**
 * Runs top-level episodes in piscina worker threads. Model calls come back to
 * this thread's gateways, so one engine batches every worker's sequences (or
 * each worker has its own, with a WorkerEngineClient). Accepted work is never
 * lost or duplicated: a worker that throws, exits or runs past `taskTimeoutMs`
 * is replaced, its episode retried once in a worker of its own (so a
 * neighbour's crash cannot fail it twice), then recorded as failed.
 */
export class RolloutPool {
  private readonly workers: Piscina;
  private retryWorker: Piscina | undefined;
  private readonly workerFile: string;
  private readonly workerData: RolloutWorkerData;
  private readonly services: TaskChannelServices;
  private readonly clock: TimeoutClock;
  private readonly capacity: number;
  private readonly maxQueue: number;
  private readonly queue: PoolTask[] = [];
  private readonly admissions: Array<() => void> = [];
  private readonly channels = new Set<TaskChannel>();
  private running = 0;
  private unsettled = 0;
  private drained: (() => void) | undefined;
  private closing: Promise<void> | undefined;
  private episodeTypes: Promise<string[]> | undefined;
  private readonly onAbort = () => {
    for (const channel of this.channels) channel.abort();
    this.pump();
  };

  constructor(
    private readonly settings: RolloutPoolSettings,
    private readonly runtime: RolloutPoolRuntime,
  ) {
    if (settings.workers < 1 || settings.episodes === undefined) {
      throw new InvalidInputError("pool.workers", "an integer ≥ 1 with an episode module (workers: 0 runs in-process, without a pool)", settings.workers);
    }
    const perWorker = settings.episodesPerWorker ?? Math.ceil(runtime.concurrency / settings.workers);
    this.capacity = perWorker * settings.workers;
    this.maxQueue = settings.maxQueue ?? this.capacity;
    this.clock = runtime.clock ?? SYSTEM_CLOCK;
    const engine = settings.engine === "per-worker" ? this.perWorkerEngine() : undefined;
    this.services = { policy: runtime.policy, judge: runtime.judge, weights: engine?.weights };
    this.workerData = {
      episodes: settings.episodes,
      seed: runtime.seed,
      samplerDefaults: runtime.samplerDefaults,
      policyCapabilities: runtime.policyCapabilities,
      judgeCapabilities: runtime.judgeCapabilities,
      judgeIsPolicy: runtime.judgeIsPolicy,
      engine: engine
        ? { kind: "per-worker", options: engine.options, versionCell: engine.versionCell, maxStaleness: settings.maxStaleness, judgeOnEngine: runtime.judgeIsPolicy }
        : { kind: "shared" },
    };
    this.workerFile = compiledSiblingFile(import.meta.url, "rollout-worker");
    this.workers = this.startWorkers({ minThreads: settings.workers, maxThreads: settings.workers, concurrentTasksPerWorker: perWorker });
    runtime.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Loads the episode module in a worker (once) and checks that it gives every type in `types`. */
  async checkEpisodeTypes(types: readonly string[]): Promise<void> {
    const module = this.workerData.episodes.module;
    this.episodeTypes ??= this.workers.run({ kind: "describe" } satisfies RolloutTask).then(
      (raw: unknown) => {
        const described = DescribeResultSchema.parse(raw);
        if (!described.ok) throw new EpisodeModuleError(module, described.problem);
        return described.episodeTypes;
      },
      (error: unknown) => {
        throw new EpisodeModuleError(module, `its worker died while loading it (${(error as Error).message})`);
      },
    );
    const available = await this.episodeTypes;
    const missing = [...new Set(types)].filter((type) => !available.includes(type));
    if (missing.length > 0) {
      throw new EpisodeModuleError(
        module,
        `its factory gives ${available.map((type) => `"${type}"`).join(", ") || "no episodes"} but the arena runs ` +
          `${missing.map((type) => `"${type}"`).join(", ")}; return every episode type the arena runs from the factory`,
      );
    }
  }

  /**
   * Accepts a request into the bounded queue — waiting while it is full
   * (backpressure) — and gives its eventual result, which never rejects.
   */
  submit(request: EpisodeRequest, placement: EpisodePlacement): Promise<{ result: Promise<GenerateResult> }> {
    if (this.closing) return Promise.reject(new RolloutPoolError("the rollout pool is closed; create a new Arena to run more episodes"));
    this.unsettled++;
    let settle!: (result: GenerateResult) => void;
    const result = new Promise<GenerateResult>((resolve) => (settle = resolve));
    const task: PoolTask = {
      request,
      placement,
      resolve: (value) => {
        settle(value);
        if (--this.unsettled === 0) this.drained?.();
      },
    };
    if (this.admissions.length === 0 && this.hasRoom()) {
      this.queue.push(task);
      this.pump();
      return Promise.resolve({ result });
    }
    return new Promise((accept) =>
      this.admissions.push(() => {
        this.queue.push(task);
        accept({ result });
      }),
    );
  }

  /** Lets accepted work finish, then ends every worker thread. Later submissions are refused. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.unsettled > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.runtime.signal?.removeEventListener("abort", this.onAbort);
      await Promise.all([this.workers.destroy(), this.retryWorker?.destroy()]);
    })();
    return this.closing;
  }

  private get aborted(): boolean {
    return this.runtime.signal?.aborted ?? false;
  }

  private hasRoom(): boolean {
    return this.aborted || this.queue.length < this.maxQueue + this.capacity - this.running;
  }

  /** Starts queued work on free slots, then lets waiting submissions in while there is room. */
  private pump(): void {
    for (;;) {
      while (this.queue.length > 0 && (this.aborted || this.running < this.capacity)) {
        const task = this.queue.shift() as PoolTask;
        if (this.aborted) {
          const error = new RolloutAbortedError(`rollout ${task.placement.rolloutId} was not started: the run was aborted`);
          task.resolve(failedResult(task.request, task.placement, "artifact", error));
        } else {
          this.dispatch(task, "first");
        }
      }
      const admit = this.admissions.length > 0 && this.hasRoom() ? this.admissions.shift() : undefined;
      if (!admit) return;
      admit();
    }
  }

  private dispatch(task: PoolTask, attempt: Attempt): void {
    const { port1, port2 } = new MessageChannel();
    const kill = new AbortController();
    const timeout = new PausableTimeout(this.settings.taskTimeoutMs, () => kill.abort(TIMED_OUT), this.clock);
    const channel = new TaskChannel(port1, this.services, timeout, (reason) => kill.abort(new RolloutPoolError(reason)));
    this.channels.add(channel);
    if (attempt === "first") this.running++;
    const workers = attempt === "first" ? this.workers : this.retryWorkerPool();
    const job: RolloutTask = { kind: "run", request: task.request, placement: task.placement, port: port2 };
    workers
      .run(job, { transferList: [port2], signal: kill.signal })
      .then(
        (result: GenerateResult) => task.resolve(result),
        async (error: unknown) => {
          const cause: unknown = kill.signal.aborted ? kill.signal.reason : error;
          // A worker that died has sent its last stage report on the episode's port: read it once the port closes
          // (bounded, for a failure that leaves the worker's thread running).
          await Promise.race([channel.disconnected, new Promise((resolve) => setTimeout(resolve, STAGE_REPORT_WAIT_MILLISECONDS).unref())]);
          this.attemptFailed(task, attempt, channel.stage, cause);
        },
      )
      .finally(() => {
        timeout.stop();
        channel.close();
        this.channels.delete(channel);
        if (attempt === "first") {
          this.running--;
          this.pump();
        }
      });
  }

  private attemptFailed(task: PoolTask, attempt: Attempt, stage: FailureStage, cause: unknown): void {
    const { request, placement } = task;
    const reason = cause === TIMED_OUT ? `past taskTimeoutMs (${this.settings.taskTimeoutMs} ms)` : cause instanceof Error ? cause.message : String(cause);
    if (this.aborted) {
      task.resolve(failedResult(request, placement, stage, new RolloutAbortedError(`rollout ${placement.rolloutId} was aborted; its worker had failed (${reason})`)));
    } else if (attempt === "first") {
      this.dispatch(task, "retry");
    } else {
      const error =
        cause === TIMED_OUT
          ? new RolloutTimeoutError(placement.rolloutId, request.episodeType, this.settings.taskTimeoutMs)
          : new RolloutWorkerCrashedError(placement.rolloutId, request.episodeType, reason);
      task.resolve(failedResult(request, placement, stage, error));
    }
  }

  /**
   * One worker, one episode at a time: a retried episode's fate is its own.
   * Started at the first retry; it stays (minThreads 1) because piscina
   * replaces a killed worker only up to minThreads, and the retries queued
   * behind a killed one need a worker to run on.
   */
  private retryWorkerPool(): Piscina {
    this.retryWorker ??= this.startWorkers({ minThreads: 1, maxThreads: 1, concurrentTasksPerWorker: 1 });
    return this.retryWorker;
  }

  private startWorkers(options: { minThreads: number; maxThreads: number; concurrentTasksPerWorker: number }): Piscina {
    const workers = new Piscina({
      filename: this.workerFile,
      workerData: this.workerData,
      // Workers await model calls between tasks: Atomics.wait would block their event loop.
      atomics: "disabled",
      loadBalancer: sharedWorkerBalancer(options.concurrentTasksPerWorker),
      ...options,
    });
    // An idle worker can die too (a timer an episode left behind); piscina replaces it and no episode is lost.
    workers.on("error", (error: Error) => console.warn(`selfplay: a rollout worker failed between episodes and was replaced: ${error.message}`));
    return workers;
  }

  private perWorkerEngine() {
    const { client } = this.runtime;
    if (!(client instanceof WorkerEngineClient)) {
      throw new InvalidInputError(
        "pool.engine",
        '"shared", or "per-worker" with a WorkerEngineClient as the arena\'s client (it tells each worker which model to open and carries swapWeights to them)',
        "per-worker",
      );
    }
    return client.workerEngine;
  }
}
