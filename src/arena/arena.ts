import { z } from "zod";
import type { CreditAssigner, CreditSample } from "../core/credit/credit-assigner.js";
import { RoleAwareCredit } from "../core/credit/role-aware-credit.js";
import type { Episode } from "../core/episodes/episode.js";
import { InvalidInputError } from "../core/errors/index.js";
import type { InferenceClient } from "../core/inference-client.js";
import { JsonValueSchema } from "../core/json.js";
import { deriveStream } from "../core/random/random-stream.js";
import { EpisodeRequestSchema, type EpisodeRequest } from "../core/schemas/episode-request.js";
import type { GenerateResult } from "../core/schemas/generate-result.js";
import { DEFAULT_SAMPLER, SeedSchema, type SamplerSettings } from "../core/schemas/sampler-settings.js";
import type { TrainingBatch } from "../core/schemas/training-record.js";
import type { ArtifactStore, ArtifactStoreSnapshot } from "./artifact-store.js";
import { buildTrainingBatch } from "./build-training-batch.js";
import type { CreditAssignment } from "./credit-assignment.js";
import { EpisodeRegistry } from "./episode-registry.js";
import { runEpisode, type EpisodeRuntime } from "./episode-runner.js";
import { ModelGateway } from "./model-gateway.js";
import { TypedEvents } from "./typed-events.js";
import { walkResults } from "./walk-results.js";
import { parseInput } from "../core/parse-input.js";
import { RolloutPool } from "./pool/rollout-pool.js";
import { RolloutPoolOptionsSchema, type RolloutPoolOptions } from "./pool/rollout-pool-options.js";

export interface ArenaOptions {
  /** Serves every Role's calls. */
  client: InferenceClient;
  /** Serves judge calls; defaults to `client`. Judge calls never become Steps. */
  judgeClient?: InferenceClient;
  /**
   * Roles served by a frozen policy instead of `client`, by role id (a frozen
   * opponent: the base model or a checkpoint loaded beside the learner). Their
   * Steps are recorded in rollouts but get no credit and never become
   * TrainingRecords (counted in `stats.skippedSteps`). In-process only: not
   * with `pool`.
   */
  roleClients?: Readonly<Record<string, InferenceClient>>;
  /**
   * Rebinds roles of `roleClients` for one top-level rollout (its sub-episodes
   * too), by its rollout id: a league's opponent drawn per rollout, which may
   * be `client` itself. The roles stay frozen (no credit, no records) whoever
   * plays them; roles it leaves out keep their `roleClients` client.
   */
  roleClientsFor?: (rolloutId: string) => Readonly<Record<string, InferenceClient>>;
  /** Run seed, an unsigned 32-bit integer: every random choice derives from it. */
  seed: number;
  /** Top-level episodes in flight at once (sub-episodes run inside their parent's slot). Default 16. */
  concurrency?: number;
  /** Default: RoleAwareCredit (GRPO for groups, a per-role EMA baseline for singletons). */
  creditAssigner?: CreditAssigner;
  /** Sampler settings of every call unless a Role or call overrides them. Default: untruncated, temperature 1, 256 tokens. */
  samplerDefaults?: Partial<Omit<SamplerSettings, "seed">>;
  /** Aborts in-flight model calls; episodes not started yet are recorded as failed. */
  signal?: AbortSignal;
  /**
   * Runs episodes in worker threads (see docs/rollout-pool.md);
   * results are the same as in-process for the same seed. Absent, or
   * `workers: 0`, runs them in this thread. Call `close()` when done.
   */
  pool?: RolloutPoolOptions;
}

export interface BatchPlanEntry {
  episodeType: string;
  /** Distinct prompts (artifacts) of this type. */
  count: number;
  /** Requests per prompt; members of a group share a groupId. Default 1. */
  groupSize?: number;
}

export interface ArenaEvents extends Record<string, unknown> {
  /** A top-level request finished (scored or failed); `index` is its position in the generateRollouts call. */
  "rollout-end": { index: number; result: GenerateResult };
}

const ArenaSnapshotSchema = z.object({
  nextEpisodeIndex: z.number().int().min(0),
  nextBatchIndex: z.number().int().min(0),
  credit: JsonValueSchema.nullable(),
  stores: z.record(z.string(), z.unknown()),
});
export type ArenaSnapshot = z.infer<typeof ArenaSnapshotSchema>;

/**
 * Persistent state and orchestration: registered episodes and their artifact
 * stores, parallel rollout generation, credit assignment and the TrainingBatch.
 * Episode state is transient; everything a run keeps lives here or on disk.
 */
export class Arena extends TypedEvents<ArenaEvents> {
  readonly creditAssigner: CreditAssigner;
  private readonly registry = new EpisodeRegistry();
  private readonly runtime: EpisodeRuntime;
  private readonly concurrency: number;
  private readonly pool: RolloutPool | undefined;
  /** Roles bound to a frozen policy (`roleClients`): no credit, no records. */
  private readonly frozenRoles: ReadonlySet<string>;
  private readonly roleClientsFor: ArenaOptions["roleClientsFor"];
  /** One gateway per client a rollout's roles are rebound to, so their calls batch together; the policy's own is `runtime.policy`. */
  private readonly roleModelsByClient = new Map<InferenceClient, { gateway: ModelGateway; capabilities: InferenceClient["capabilities"] }>();
  /** generateRollouts calls still running: close() lets them finish. */
  private readonly batches = new Set<Promise<unknown>>();
  private nextEpisodeIndex = 0;
  private nextBatchIndex = 0;

  constructor(options: ArenaOptions) {
    super();
    const seed = SeedSchema.safeParse(options.seed);
    if (!seed.success) throw new InvalidInputError("seed", "an integer in [0, 4294967295]", options.seed);
    this.concurrency = options.concurrency ?? 16;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new InvalidInputError("concurrency", "an integer ≥ 1", options.concurrency);
    }
    this.creditAssigner = options.creditAssigner ?? new RoleAwareCredit();
    const roleClients = Object.entries(options.roleClients ?? {});
    this.frozenRoles = new Set(roleClients.map(([roleId]) => roleId));
    this.runtime = {
      seed: seed.data,
      registry: this.registry,
      policy: this.roleModel(options.client, options.signal).gateway,
      policyCapabilities: options.client.capabilities,
      judge: new ModelGateway(options.judgeClient ?? options.client, options.signal),
      judgeCapabilities: (options.judgeClient ?? options.client).capabilities,
      judgeIsPolicy: options.judgeClient === undefined || options.judgeClient === options.client,
      roleModels: new Map(roleClients.map(([roleId, client]) => [roleId, this.roleModel(client, options.signal)])),
      samplerDefaults: { ...DEFAULT_SAMPLER, ...options.samplerDefaults },
      signal: options.signal,
    };
    this.roleClientsFor = options.roleClientsFor;
    const pool = parseInput(RolloutPoolOptionsSchema, options.pool ?? {}, { fieldName: (path) => `pool.${path.map(String).join(".")}` });
    if (pool.workers > 0 && roleClients.length > 0) {
      // Pool workers send every role's calls to the policy; a frozen role would silently play as the learner.
      throw new InvalidInputError("pool.workers", "0 (in-process) when roles are bound to frozen policies (roleClients)", pool.workers);
    }
    if (pool.workers > 0) {
      this.pool = new RolloutPool(pool, {
        ...this.runtime,
        client: options.client,
        concurrency: this.concurrency,
      });
    }
  }

  /** Makes an episode type available; `store` supplies artifacts to getBatch. */
  register(episode: Episode, store?: ArtifactStore): this {
    this.registry.register(episode as Episode, store);
    return this;
  }

  get episodeTypes(): string[] {
    return this.registry.types();
  }

  /**
   * The next batch of work. Artifacts are drawn from each type's store with a
   * stream seeded by (run seed, batch number); a type without a store gets
   * requests without an artifact, for episodes that make their own.
   */
  getBatch(plan: readonly BatchPlanEntry[]): EpisodeRequest[] {
    const batchIndex = this.nextBatchIndex++;
    const random = deriveStream(this.runtime.seed, "batch", String(batchIndex));
    const requests: EpisodeRequest[] = [];
    plan.forEach((entry, entryIndex) => {
      const { store } = this.registry.get(entry.episodeType);
      const groupSize = entry.groupSize ?? 1;
      for (const [field, value] of [["count", entry.count], ["groupSize", groupSize]] as const) {
        if (!Number.isInteger(value) || value < 1) throw new InvalidInputError(`plan[${entryIndex}].${field}`, "an integer ≥ 1", value);
      }
      for (let prompt = 0; prompt < entry.count; prompt++) {
        const artifact = store?.sample(random).artifact;
        const groupId = groupSize > 1 ? `b${batchIndex}.${entryIndex}.${prompt}` : undefined;
        for (let member = 0; member < groupSize; member++) {
          requests.push({
            episodeType: entry.episodeType,
            ...(artifact === undefined ? {} : { artifact }),
            ...(groupId === undefined ? {} : { groupId }),
          });
        }
      }
    });
    return requests;
  }

  /**
   * Runs requests concurrently (at most `concurrency` top-level episodes at a
   * time, or the pool's workers × episodesPerWorker) and returns their results
   * in request order. An episode that throws is recorded as failed and never sinks the batch.
   */
  async generateRollouts(requests: readonly EpisodeRequest[]): Promise<GenerateResult[]> {
    const batch = this.runRollouts(requests);
    this.batches.add(batch);
    try {
      return await batch;
    } finally {
      this.batches.delete(batch);
    }
  }

  private async runRollouts(requests: readonly EpisodeRequest[]): Promise<GenerateResult[]> {
    requests.forEach((request, index) => {
      parseInput(EpisodeRequestSchema, request, { fieldName: (path) => `requests[${index}].${path.map(String).join(".")}` });
      this.registry.get(request.episodeType);
    });
    if (this.pool) await this.pool.checkEpisodeTypes(requests.map((request) => request.episodeType));
    const firstIndex = this.nextEpisodeIndex;
    this.nextEpisodeIndex += requests.length;
    const results = new Array<GenerateResult>(requests.length);
    if (this.pool) return this.generateInPool(this.pool, requests, firstIndex, results);
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const index = next++;
        const request = requests[index] as EpisodeRequest;
        const rolloutId = `ep${firstIndex + index}`;
        const result = await runEpisode(this.runtimeFor(rolloutId), request, { rolloutId, groupId: request.groupId ?? rolloutId });
        results[index] = result;
        this.emit("rollout-end", { index, result });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, requests.length) }, worker));
    return results;
  }

  /** The runtime of one top-level rollout: the arena's, with the roles `roleClientsFor` rebinds for it. */
  private runtimeFor(rolloutId: string): EpisodeRuntime {
    if (!this.roleClientsFor) return this.runtime;
    const roleModels = new Map(this.runtime.roleModels);
    for (const [roleId, client] of Object.entries(this.roleClientsFor(rolloutId))) {
      if (!this.frozenRoles.has(roleId)) throw new InvalidInputError("roleClientsFor", `roles of roleClients only (${[...this.frozenRoles].join(", ")})`, roleId);
      roleModels.set(roleId, this.roleModel(client, this.runtime.signal));
    }
    return { ...this.runtime, roleModels };
  }

  private roleModel(client: InferenceClient, signal: AbortSignal | undefined) {
    let model = this.roleModelsByClient.get(client);
    if (!model) {
      model = { gateway: new ModelGateway(client, signal), capabilities: client.capabilities };
      this.roleModelsByClient.set(client, model);
    }
    return model;
  }

  /** Submits in request order, waiting whenever the pool's queue is full; rollout ids are the same as in-process. */
  private async generateInPool(
    pool: RolloutPool,
    requests: readonly EpisodeRequest[],
    firstIndex: number,
    results: GenerateResult[],
  ): Promise<GenerateResult[]> {
    const finished: Promise<void>[] = [];
    for (const [index, request] of requests.entries()) {
      const rolloutId = `ep${firstIndex + index}`;
      const { result } = await pool.submit(request, { rolloutId, groupId: request.groupId ?? rolloutId });
      finished.push(
        result.then((value) => {
          results[index] = value;
          this.emit("rollout-end", { index, result: value });
        }),
      );
    }
    await Promise.all(finished);
    return results;
  }

  /** Lets running generateRollouts calls finish, then ends the pool's worker threads; an arena without a pool has nothing to close. */
  async close(): Promise<void> {
    await Promise.allSettled(this.batches);
    await this.pool?.close();
  }

  /**
   * Maps rewards to advantages with the credit assigner. One assignment per
   * (scored rollout, role with Steps in it), sub-episodes included; roles
   * bound to a frozen policy get none.
   */
  assignCredit(results: readonly GenerateResult[]): CreditAssignment[] {
    const samples: CreditSample[] = [];
    for (const result of walkResults(results)) {
      if (result.outcome.status !== "scored") continue;
      const actors = new Set(result.rollout.steps.map((step) => step.roleId));
      for (const [roleId, reward] of Object.entries(result.rewards)) {
        if (actors.has(roleId) && !this.frozenRoles.has(roleId)) samples.push({ rolloutId: result.rollout.id, roleId, groupId: result.rollout.groupId, reward });
      }
    }
    const advantages = this.creditAssigner.assign(samples);
    return samples.map((sample, index) => ({ ...sample, advantage: advantages[index] as number }));
  }

  buildTrainingBatch(results: readonly GenerateResult[], assignments: readonly CreditAssignment[], batchIndex: number): TrainingBatch {
    return buildTrainingBatch(this.registry, results, assignments, batchIndex, this.creditAssigner.name);
  }

  /** Everything a resumed run needs to continue identically (episode counter, credit baselines, stores). */
  snapshot(): ArenaSnapshot {
    const stores: Record<string, ArtifactStoreSnapshot> = {};
    for (const type of this.registry.types()) {
      const store = this.registry.get(type).store;
      if (store) stores[type] = store.snapshot();
    }
    return {
      nextEpisodeIndex: this.nextEpisodeIndex,
      nextBatchIndex: this.nextBatchIndex,
      credit: this.creditAssigner.snapshot?.() ?? null,
      stores,
    };
  }

  restore(snapshot: ArenaSnapshot): void {
    const parsed = ArenaSnapshotSchema.parse(snapshot);
    this.nextEpisodeIndex = parsed.nextEpisodeIndex;
    this.nextBatchIndex = parsed.nextBatchIndex;
    if (parsed.credit !== null) this.creditAssigner.restore?.(parsed.credit);
    for (const [type, storeSnapshot] of Object.entries(parsed.stores)) {
      this.registry.get(type).store?.restore(storeSnapshot as ArtifactStoreSnapshot);
    }
  }
}
