import { z } from "zod";
import type { Arena } from "../../arena/arena.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { RandomStream, RandomStreamStateSchema, deriveStream } from "../../core/random/random-stream.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Environment, EnvironmentClusters } from "../../environments/environment.js";
import { ClusterPassRates, ClusterPassRatesSnapshotSchema } from "../../frontier/learnable/cluster-pass-rates.js";
import { LearnableFrontier } from "../../frontier/learnable/learnable-frontier.js";
import { LearnableSettingsSchema, type LearnableSettingsInput } from "../../frontier/learnable/learnable-settings.js";
import { PassRateWindowSettingsSchema, type PassRateWindowSettingsInput } from "../../frontier/learnable/pass-rate-window-settings.js";
import { clusteredPromptCount, clusteredRequests } from "./clustered-requests.js";
import { clusterStepOutcomes } from "./cluster-step-outcomes.js";
import { summariseDecisions, type StepRequestChoice, type StepRequests } from "./step-requests.js";

/** What `LearnableRequests` carries across a resume. */
export const LearnableRequestsSnapshotSchema = z.object({
  /** Each cluster's recent attempts. */
  passRates: ClusterPassRatesSnapshotSchema,
  /** The stream of the floor rolls and the weighted picks. */
  frontierRandom: RandomStreamStateSchema,
  /** The stream that draws an artifact of each chosen cluster. */
  artifactRandom: RandomStreamStateSchema,
  /** Steps chosen so far: the group ids count them. */
  choices: z.number().int().min(0),
});
export type LearnableRequestsSnapshot = z.infer<typeof LearnableRequestsSnapshotSchema>;

export interface LearnableRequestsOptions {
  /** The environment; it must declare clusters. */
  environment: Environment;
  /** Draws the plan entries that are not clustered. */
  arena: Arena;
  /** The run seed: the draws come from its `learnable-frontier` and `learnable-artifacts` streams. */
  seed: number;
  settings?: LearnableSettingsInput;
  passRates?: PassRateWindowSettingsInput;
  /** The state a checkpoint saved (`snapshot()`), to continue from. */
  snapshot?: JsonObject;
}

/**
 * The clustered plan entry's prompts chosen by the LearnableFrontier — each
 * cluster weighted by its data share × the probability that a group of its
 * attempts disagrees at its recent pass rate, a floor by share under it —
 * then an artifact of that cluster drawn from the store. After
 * each step, every cluster's attempts and successes join its window
 * (successes = the first-attempt rate × the attempts the environment reports).
 */
export class LearnableRequests implements StepRequests {
  readonly mode = "learnable";
  private readonly clusters: EnvironmentClusters;
  private readonly passRates: ClusterPassRates;
  private readonly frontierRandom: RandomStream;
  private readonly artifactRandom: RandomStream;
  private readonly frontier: LearnableFrontier;
  private choices = 0;

  constructor(private readonly options: LearnableRequestsOptions) {
    const { environment } = options;
    if (!environment.clusters) throw new InvalidInputError("frontier.mode", `"uniform" for the ${environment.name} environment, which declares no clusters`, "learnable");
    this.clusters = environment.clusters;
    const windowSettings = parseInput(PassRateWindowSettingsSchema, options.passRates ?? {}, { fieldName: (path) => `frontier.passRates.${path.map(String).join(".")}` });
    const settings = parseInput(LearnableSettingsSchema, options.settings ?? {}, { fieldName: (path) => `frontier.learnable.${path.map(String).join(".")}` });
    if (options.snapshot) {
      const snapshot = parseInput(LearnableRequestsSnapshotSchema, options.snapshot, { fieldName: (path) => `checkpoint.frontier.${path.map(String).join(".")}` });
      this.passRates = new ClusterPassRates(windowSettings, snapshot.passRates);
      this.frontierRandom = RandomStream.fromState(snapshot.frontierRandom);
      this.artifactRandom = RandomStream.fromState(snapshot.artifactRandom);
      this.choices = snapshot.choices;
    } else {
      this.passRates = new ClusterPassRates(windowSettings);
      this.frontierRandom = deriveStream(options.seed, "learnable-frontier");
      this.artifactRandom = deriveStream(options.seed, "learnable-artifacts");
    }
    this.frontier = new LearnableFrontier({ random: this.frontierRandom, passRates: this.passRates, settings, shares: clusterShares(environment, this.clusters), groupSize: groupSizeOf(environment, this.clusters) });
  }

  async choose(): Promise<StepRequestChoice> {
    const { environment, arena } = this.options;
    const decisions = Array.from({ length: clusteredPromptCount(environment, this.clusters) }, () => this.frontier.pick(this.clusters.names));
    const requests = clusteredRequests(environment, this.clusters, decisions.map((decision) => decision.cluster), this.artifactRandom, `l${this.choices++}`);
    const others = environment.plan.filter((entry) => entry.episodeType !== this.clusters.episodeType);
    if (others.length > 0) requests.push(...arena.getBatch(others));
    return { requests, ...summariseDecisions(decisions.map(({ cluster, reason, message }) => ({ cluster, rule: reason, message }))) };
  }

  observe(results: readonly GenerateResult[]): void {
    for (const { cluster, firstAttemptRate, trajectories } of clusterStepOutcomes(results, this.clusters)) {
      this.passRates.record(cluster, { attempts: trajectories, successes: firstAttemptRate * trajectories });
    }
  }

  snapshot(): JsonObject {
    const snapshot: LearnableRequestsSnapshot = {
      passRates: this.passRates.snapshot(),
      frontierRandom: this.frontierRandom.state(),
      artifactRandom: this.artifactRandom.state(),
      choices: this.choices,
    };
    return structuredClone(snapshot) as unknown as JsonObject;
  }

  async dispose(): Promise<void> {}
}

/** The clusters' data shares: the environment's, else the count of the store's artifacts in each. */
function clusterShares(environment: Environment, clusters: EnvironmentClusters): Readonly<Record<string, number>> {
  if (clusters.shares) return clusters.shares;
  const counts: Record<string, number> = Object.fromEntries(clusters.names.map((name) => [name, 0]));
  for (const artifact of environment.stores[clusters.episodeType]?.artifacts() ?? []) {
    const cluster = clusters.of(artifact);
    if (Object.hasOwn(counts, cluster)) counts[cluster] = (counts[cluster] as number) + 1;
  }
  // A store-less episode type (its artifacts made by the episode) leaves every count at 0: equal shares.
  return Object.values(counts).some((count) => count > 0) ? counts : Object.fromEntries(clusters.names.map((name) => [name, 1]));
}

/** Attempts in one GRPO group of a clustered prompt: the episode's own sub-episode group, else the plan entry's group size. */
function groupSizeOf(environment: Environment, clusters: EnvironmentClusters): number {
  if (clusters.subEpisodeGroups) return clusters.subEpisodeGroups.size;
  return Math.max(1, ...environment.plan.filter((entry) => entry.episodeType === clusters.episodeType).map((entry) => entry.groupSize ?? 1));
}
