import { z } from "zod";
import type { JsonObject } from "../../src/core/json.js";
import { parseInput } from "../../src/core/parse-input.js";
import { deriveStream } from "../../src/core/random/random-stream.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import type { FrontierDecision } from "../../src/curriculum/frontier/frontier-decision.js";
import type { FrontierSettingsInput } from "../../src/curriculum/frontier/frontier-settings.js";
import { FrontierTracker } from "../../src/curriculum/frontier/frontier-tracker.js";
import { FrontierTrackerSnapshotSchema } from "../../src/curriculum/frontier/frontier-tracker-snapshot.js";
import { taskText } from "../../src/curriculum/labelling/task-text.js";
import type { PrmScorer } from "../../src/curriculum/prm/prm-scorer.js";
import type { PrmState } from "../../src/curriculum/prm/prm-state.js";
import { solverMessages } from "../../src/examples/arithmetic/arithmetic-prompts.js";
import { problemsOfSplit } from "../../src/examples/arithmetic/arithmetic-task.js";
import { clusterStepSummaries } from "./cluster-outcomes.js";
import { countKeys, PROPOSE_EPISODE_TYPE, type ProposalTargets, type TargetChoice } from "./proposal-targets.js";

/** What `FrontierTargets` carries across a resume. */
export const FrontierTargetsSnapshotSchema = z.object({
  tracker: FrontierTrackerSnapshotSchema,
  /** Scored solver attempts per cluster so far: the rarity signal. */
  trajectoryCounts: z.record(z.string(), z.number().int().min(0)),
  /** Each cluster's latest problem as its solvers saw it: the state the PRM scores for the cluster. */
  latestTasks: z.record(z.string(), z.string()),
});
export type FrontierTargetsSnapshot = z.infer<typeof FrontierTargetsSnapshotSchema>;

export interface FrontierTargetsOptions {
  /** The candidate clusters, every one the task has. */
  clusters: readonly string[];
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
 * Targets from the FrontierTracker: every proposal's cluster is a
 * `pickFrontierSeed` — PRM uncertainty about the cluster's latest problem
 * (prefix "") × rarity of its trajectories, saturated clusters at 0 — or the
 * fallback it took (cold start, uniform-sample roll, all weights zero, a PRM
 * error). After each step the tracker records each cluster's solve rates.
 */
export class FrontierTargets implements ProposalTargets {
  readonly mode = "prm";
  private readonly tracker: FrontierTracker;
  private readonly trajectoryCounts: Record<string, number>;
  private readonly latestTasks: Record<string, string>;
  /** Before a cluster has been played, the PRM scores its first training problem. */
  private readonly firstTasks: Map<string, string>;

  constructor(private readonly options: FrontierTargetsOptions) {
    const settings = options.settings ?? {};
    if (options.snapshot) {
      const snapshot = parseInput(FrontierTargetsSnapshotSchema, options.snapshot, { fieldName: (path) => `checkpoint.frontier.${path.map(String).join(".")}` });
      this.tracker = FrontierTracker.restore(snapshot.tracker, { settings });
      this.trajectoryCounts = snapshot.trajectoryCounts;
      this.latestTasks = snapshot.latestTasks;
    } else {
      this.tracker = new FrontierTracker({ random: deriveStream(options.seed, "frontier"), settings });
      this.trajectoryCounts = {};
      this.latestTasks = {};
    }
    this.firstTasks = new Map();
    for (const problem of problemsOfSplit("train")) {
      if (!this.firstTasks.has(problem.cluster)) this.firstTasks.set(problem.cluster, taskText(solverMessages(problem.text)));
    }
  }

  async choose(count: number): Promise<TargetChoice> {
    const signals = { scorer: this.options.scorer, trajectoryCounts: this.trajectoryCounts, representativeState: (cluster: string) => this.representativeState(cluster) };
    const decisions: FrontierDecision[] = [];
    for (let index = 0; index < count; index++) decisions.push(await this.tracker.pickFrontierSeed(this.options.clusters, signals));
    const rules = decisions.map((decision) => (decision.fallback === null ? decision.reason : `fallback:${decision.fallback}`));
    const reasons = countKeys(rules);
    return {
      requests: decisions.map((decision) => ({ episodeType: PROPOSE_EPISODE_TYPE, artifact: { cluster: decision.cluster } })),
      reasons,
      targets: countKeys(decisions.map((decision) => decision.cluster)),
      messages: Object.keys(reasons).map((rule) => (decisions[rules.indexOf(rule)] as FrontierDecision).message),
    };
  }

  observe(results: readonly GenerateResult[]): void {
    for (const { outcome, trajectories, latestTask } of clusterStepSummaries(results)) {
      this.tracker.record(outcome);
      this.trajectoryCounts[outcome.cluster] = (this.trajectoryCounts[outcome.cluster] ?? 0) + trajectories;
      this.latestTasks[outcome.cluster] = latestTask;
    }
  }

  snapshot(): JsonObject {
    const snapshot: FrontierTargetsSnapshot = { tracker: this.tracker.snapshot(), trajectoryCounts: { ...this.trajectoryCounts }, latestTasks: { ...this.latestTasks } };
    return structuredClone(snapshot) as unknown as JsonObject;
  }

  async dispose(): Promise<void> {
    await this.options.disposeScorer?.();
  }

  private representativeState(cluster: string): PrmState {
    return { task: this.latestTasks[cluster] ?? this.firstTasks.get(cluster) ?? cluster, cluster, prefix: "" };
  }
}
