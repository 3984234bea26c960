import { z } from "zod";
import type { Arena } from "../../arena/arena.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { RandomStream, RandomStreamStateSchema, deriveStream } from "../../core/random/random-stream.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { FrontierDecision } from "../../frontier/tracker/frontier-decision.js";
import type { FrontierSettingsInput } from "../../frontier/tracker/frontier-settings.js";
import { FrontierTracker } from "../../frontier/tracker/frontier-tracker.js";
import { FrontierTrackerSnapshotSchema } from "../../frontier/tracker/frontier-tracker-snapshot.js";
import type { PrmScorer } from "../../frontier/prm/prm-scorer.js";
import type { PrmState } from "../../frontier/prm/prm-state.js";
import type { Environment, EnvironmentClusters } from "../../environments/environment.js";
import { clusterStepOutcomes } from "./cluster-step-outcomes.js";
import { clusteredPromptCount, clusteredRequests } from "./clustered-requests.js";
import { summariseDecisions, type StepRequestChoice, type StepRequests } from "./step-requests.js";

/** What `FrontierRequests` carries across a resume. */
export const FrontierRequestsSnapshotSchema = z.object({
  tracker: FrontierTrackerSnapshotSchema,
  /** Trajectories per cluster so far: the rarity signal. */
  trajectoryCounts: z.record(z.string(), z.number().int().min(0)),
  /** Each cluster's latest task: the state the PRM scores for the cluster. */
  latestTasks: z.record(z.string(), z.string()),
  /** The stream that draws an artifact of each chosen cluster. */
  artifactRandom: RandomStreamStateSchema,
  /** Steps chosen so far: the frontier's group ids count them. */
  choices: z.number().int().min(0),
});
export type FrontierRequestsSnapshot = z.infer<typeof FrontierRequestsSnapshotSchema>;

export interface FrontierRequestsOptions {
  /** The environment; it must declare clusters. */
  environment: Environment;
  /** Draws the plan entries that are not clustered. */
  arena: Arena;
  /** The PRM whose uncertainty weights the clusters. */
  scorer: PrmScorer;
  /** The run seed: the tracker's draws come from its `frontier` stream. */
  seed: number;
  settings?: FrontierSettingsInput;
  /** The state a checkpoint saved (`snapshot()`), to continue from. */
  snapshot?: JsonObject;
  /** Releases the scorer (and its featuriser's model) when the run ends. */
  disposeScorer?: () => Promise<void>;
}

/**
 * The clustered plan entry's prompts chosen by the FrontierTracker: each one
 * a `pickFrontierSeed` — PRM uncertainty about the cluster's latest task
 * (prefix "") × rarity of its trajectories, saturated clusters at 0 — or the
 * fallback it took; then an artifact of that cluster drawn from the store.
 * After each step the tracker records each cluster's outcomes.
 */
export class FrontierRequests implements StepRequests {
  readonly mode = "prm";
  private readonly clusters: EnvironmentClusters;
  private readonly tracker: FrontierTracker;
  private readonly trajectoryCounts: Record<string, number>;
  private readonly latestTasks: Record<string, string>;
  private readonly artifactRandom: RandomStream;
  private choices = 0;

  constructor(private readonly options: FrontierRequestsOptions) {
    const { environment } = options;
    if (!environment.clusters) throw new InvalidInputError("frontier.mode", `"uniform" for the ${environment.name} environment, which declares no clusters`, "prm");
    this.clusters = environment.clusters;
    const settings = options.settings ?? {};
    if (options.snapshot) {
      const snapshot = parseInput(FrontierRequestsSnapshotSchema, options.snapshot, { fieldName: (path) => `checkpoint.frontier.${path.map(String).join(".")}` });
      this.tracker = FrontierTracker.restore(snapshot.tracker, { settings });
      this.trajectoryCounts = snapshot.trajectoryCounts;
      this.latestTasks = snapshot.latestTasks;
      this.artifactRandom = RandomStream.fromState(snapshot.artifactRandom);
      this.choices = snapshot.choices;
    } else {
      this.tracker = new FrontierTracker({ random: deriveStream(options.seed, "frontier"), settings });
      this.trajectoryCounts = {};
      this.latestTasks = {};
      this.artifactRandom = deriveStream(options.seed, "frontier-artifacts");
    }
  }

  async choose(): Promise<StepRequestChoice> {
    const { environment, arena } = this.options;
    const signals = { scorer: this.options.scorer, trajectoryCounts: this.trajectoryCounts, representativeState: (cluster: string) => this.representativeState(cluster) };
    const decisions: FrontierDecision[] = [];
    // The tracker's draws and the artifacts' come from separate streams: picking every cluster first draws what picking one at a time did.
    for (let prompt = 0; prompt < clusteredPromptCount(environment, this.clusters); prompt++) decisions.push(await this.tracker.pickFrontierSeed(this.clusters.names, signals));
    const requests = clusteredRequests(environment, this.clusters, decisions.map((decision) => decision.cluster), this.artifactRandom, `f${this.choices++}`);
    const others = environment.plan.filter((entry) => entry.episodeType !== this.clusters.episodeType);
    if (others.length > 0) requests.push(...arena.getBatch(others));
    return {
      requests,
      ...summariseDecisions(
        decisions.map((decision) => ({ cluster: decision.cluster, rule: decision.fallback === null ? decision.reason : `fallback:${decision.fallback}`, message: decision.message })),
      ),
    };
  }

  observe(results: readonly GenerateResult[]): void {
    for (const { cluster, firstAttemptRate, successRate, trajectories, latestTask } of clusterStepOutcomes(results, this.clusters)) {
      this.tracker.record({ cluster, firstAttemptRate, successRate });
      this.trajectoryCounts[cluster] = (this.trajectoryCounts[cluster] ?? 0) + trajectories;
      this.latestTasks[cluster] = latestTask;
    }
  }

  snapshot(): JsonObject {
    const snapshot: FrontierRequestsSnapshot = {
      tracker: this.tracker.snapshot(),
      trajectoryCounts: { ...this.trajectoryCounts },
      latestTasks: { ...this.latestTasks },
      artifactRandom: this.artifactRandom.state(),
      choices: this.choices,
    };
    return structuredClone(snapshot) as unknown as JsonObject;
  }

  async dispose(): Promise<void> {
    await this.options.disposeScorer?.();
  }

  private representativeState(cluster: string): PrmState {
    return { task: this.latestTasks[cluster] ?? this.clusters.firstTask?.(cluster) ?? cluster, cluster, prefix: "" };
  }
}
