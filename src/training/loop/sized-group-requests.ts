import { z } from "zod";
import { JsonObjectSchema, type JsonObject } from "../../core/json.js";
import type { EpisodeRequest } from "../../core/schemas/episode-request.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Environment, EnvironmentClusters } from "../../environments/environment.js";
import { ClusterPassRates, ClusterPassRatesSnapshotSchema } from "../../frontier/learnable/cluster-pass-rates.js";
import { groupSizeForPassRate } from "../../frontier/learnable/group-size-for-pass-rate.js";
import type { GroupSizingSettings } from "../../frontier/learnable/group-sizing-settings.js";
import type { PassRateWindowSettings } from "../../frontier/learnable/pass-rate-window-settings.js";
import { scaleGroupSizes } from "../../frontier/learnable/scale-group-sizes.js";
import { clusterStepOutcomes } from "./cluster-step-outcomes.js";
import type { StepRequestChoice, StepRequests } from "./step-requests.js";

/** What `SizedGroupRequests` carries across a resume: the selection's own state, and the pass rates the sizes come from. */
export const SizedGroupRequestsSnapshotSchema = z.object({
  selection: JsonObjectSchema.nullable(),
  passRates: ClusterPassRatesSnapshotSchema,
});
export type SizedGroupRequestsSnapshot = z.infer<typeof SizedGroupRequestsSnapshotSchema>;

export interface SizedGroupRequestsOptions {
  /** The environment; its clusters (checked by `assertFrontierFits`) say which requests are grouped prompts. */
  environment: Environment & { clusters: EnvironmentClusters };
  settings: GroupSizingSettings;
  passRates: PassRateWindowSettings;
  /** The pass rates a checkpoint saved (`snapshot().passRates`). */
  snapshot?: SizedGroupRequestsSnapshot["passRates"];
}

/** One clustered prompt of a step's requests: where it is, its cluster and its group's configured size. */
interface ClusteredPrompt {
  first: number;
  cluster: string;
  size: number;
}

/**
 * Groups sized to the difficulty, over any selection: each clustered prompt
 * gets G = ⌈log(1 − q) / log(1 − p̂)⌉ attempts from its cluster's smoothed
 * recent pass rate, clamped, then (by default) scaled so the step's rollouts
 * stay at the plan's. A plan-level group (same `groupId`) is repeated G
 * times; a sub-episode group is asked for through the environment's
 * `clusters.subEpisodeGroups.withSize`. Requests of other types pass as they are.
 */
export class SizedGroupRequests implements StepRequests {
  readonly mode: StepRequests["mode"];
  private readonly passRates: ClusterPassRates;

  constructor(
    private readonly selection: StepRequests,
    private readonly options: SizedGroupRequestsOptions,
  ) {
    this.mode = selection.mode;
    this.passRates = new ClusterPassRates(options.passRates, options.snapshot);
  }

  async choose(): Promise<StepRequestChoice> {
    const choice = await this.selection.choose();
    const { clusters } = this.options.environment;
    const subEpisodes = clusters.subEpisodeGroups;
    const prompts: ClusteredPrompt[] = [];
    const byGroup = new Map<string, ClusteredPrompt>();
    choice.requests.forEach((request, index) => {
      if (request.episodeType !== clusters.episodeType) return;
      // With sub-episode groups each request is a prompt of its own; otherwise a plan-level group's members share its groupId.
      const known = subEpisodes || request.groupId === undefined ? undefined : byGroup.get(request.groupId);
      if (known) {
        known.size++;
        return;
      }
      const prompt = { first: index, cluster: clusters.of(request.artifact ?? null), size: subEpisodes?.size ?? 1 };
      prompts.push(prompt);
      if (request.groupId !== undefined) byGroup.set(request.groupId, prompt);
    });
    const sizes = this.sizes(prompts);
    const sizeAt = new Map(prompts.map((prompt, index) => [prompt.first, sizes[index] as number]));
    const requests: EpisodeRequest[] = [];
    choice.requests.forEach((request, index) => {
      const size = sizeAt.get(index);
      if (request.episodeType !== clusters.episodeType) requests.push(request);
      else if (size === undefined) return; // a later member of a plan-level group: the first one stands for it
      else if (subEpisodes) requests.push({ ...request, artifact: subEpisodes.withSize(request.artifact ?? null, size) });
      else for (let member = 0; member < size; member++) requests.push(request);
    });
    return { ...choice, requests, groupSizes: meanByCluster(prompts.map((prompt, index) => [prompt.cluster, sizes[index] as number])) };
  }

  observe(results: readonly GenerateResult[]): void {
    this.selection.observe(results);
    for (const { cluster, firstAttemptRate, trajectories } of clusterStepOutcomes(results, this.options.environment.clusters)) {
      this.passRates.record(cluster, { attempts: trajectories, successes: firstAttemptRate * trajectories });
    }
  }

  snapshot(): JsonObject {
    const snapshot: SizedGroupRequestsSnapshot = { selection: this.selection.snapshot(), passRates: this.passRates.snapshot() };
    return structuredClone(snapshot) as unknown as JsonObject;
  }

  async dispose(): Promise<void> {
    await this.selection.dispose();
  }

  /** Each prompt's size: from its cluster's pass rate, scaled to the configured sizes' sum when the plan's rollouts are kept. */
  private sizes(prompts: readonly ClusteredPrompt[]): number[] {
    const { settings } = this.options;
    const raw = prompts.map((prompt) => groupSizeForPassRate(this.passRates.estimate(prompt.cluster), settings));
    if (!settings.keepPlanRollouts || prompts.length === 0) return raw;
    return scaleGroupSizes(raw, prompts.reduce((sum, prompt) => sum + prompt.size, 0), settings.min, settings.max);
  }
}

/** The mean of each key's values, keys in order of first appearance. */
function meanByCluster(pairs: readonly (readonly [string, number])[]): Record<string, number> {
  const sums = new Map<string, { total: number; count: number }>();
  for (const [cluster, size] of pairs) {
    const entry = sums.get(cluster) ?? { total: 0, count: 0 };
    entry.total += size;
    entry.count++;
    sums.set(cluster, entry);
  }
  return Object.fromEntries([...sums].map(([cluster, { total, count }]) => [cluster, total / count]));
}
