import type { Arena } from "../../arena/arena.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { DynamicSamplingConfiguration } from "./dynamic-sampling-configuration.js";
import { informativeGroups, type IsTrainedRole } from "./informative-groups.js";
import type { StepRequestChoice, StepRequests } from "./step-requests.js";
import type { TrainingStepMetrics } from "./training-step-metrics.js";

export interface DrawStepRolloutsOptions {
  requests: StepRequests;
  arena: Arena;
  dynamicSampling: DynamicSamplingConfiguration;
  isTrainedRole: IsTrainedRole;
  /** The environment's step-level reward term (`Environment.adjustStepRewards`), applied to each draw as it ends. */
  adjustRewards?: (results: readonly GenerateResult[]) => GenerateResult[];
  /** Milliseconds of a monotonic clock (`performance.now`); injected so the time budget is testable. */
  now: () => number;
  /** Told each time a top-level episode ends: `done` of the `total` drawn so far this step. */
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface StepRollouts {
  /** Every rollout of the step's draws, in draw order: all of them are logged. */
  results: GenerateResult[];
  /** How the draws' clustered prompts were chosen, summed over the draws. */
  choice: Omit<StepRequestChoice, "requests">;
  /** Groups left out of the update: those whose members all scored alike, and informative ones beyond the target. */
  droppedGroups: ReadonlySet<string>;
  groups: TrainingStepMetrics["groups"];
}

/**
 * A step's rollouts: one draw of the plan (`requests.choose()`), or with
 * dynamic sampling more, while the step has fewer informative groups than its
 * target and `maxDraws` and `maxSeconds` allow. Each draw's results go to
 * `requests.observe` before the next choice, so the frontier sees every
 * rollout; each draw advances the arena's seeded batch and episode counters,
 * so a resumed run draws what the uninterrupted one drew.
 */
export async function drawStepRollouts(options: DrawStepRolloutsOptions): Promise<StepRollouts> {
  const { requests, arena, dynamicSampling, isTrainedRole, now } = options;
  const started = now();
  const results: GenerateResult[] = [];
  const choice: StepRollouts["choice"] = { reasons: {}, targets: {}, messages: [] };
  const sizedPrompts: Record<string, { prompts: number; members: number }> = {};
  const informative: string[] = [];
  const uninformative: string[] = [];
  let target = dynamicSampling.targetGroups;
  let total = 0;
  let done = 0;
  let draws = 0;
  const stopListening = arena.on("rollout-end", () => options.onProgress?.({ done: ++done, total }));
  try {
    for (;;) {
      const drawn = await requests.choose();
      total += drawn.requests.length;
      const generated = await arena.generateRollouts(drawn.requests);
      const drawResults = options.adjustRewards ? options.adjustRewards(generated) : generated;
      draws++;
      requests.observe(drawResults);
      results.push(...drawResults);
      addChoice(choice, drawn, sizedPrompts);
      const split = informativeGroups(drawResults, isTrainedRole);
      informative.push(...split.informative);
      uninformative.push(...split.uninformative);
      target ??= split.informative.length + split.uninformative.length;
      if (!dynamicSampling.enabled || informative.length >= target || draws >= dynamicSampling.maxDraws) break;
      const seconds = (now() - started) / 1000;
      if (dynamicSampling.maxSeconds !== undefined && seconds + seconds / draws >= dynamicSampling.maxSeconds) break;
    }
  } finally {
    stopListening();
  }
  // DAPO fills the batch to the target: informative groups in draw order, the rest left out of the update.
  const kept = dynamicSampling.enabled ? Math.min(informative.length, target) : informative.length + uninformative.length;
  const droppedGroups = new Set(dynamicSampling.enabled ? [...uninformative, ...informative.slice(kept)] : []);
  const drawnGroups = informative.length + uninformative.length;
  return {
    results,
    choice,
    droppedGroups,
    groups: { drawn: drawnGroups, informative: informative.length, kept, dropped: drawnGroups - kept, target, draws, reachedTarget: informative.length >= target },
  };
}

/**
 * Adds a draw's counts to the step's; a rule's message is its first decision's. Group sizes (adaptive sizing) are
 * each cluster's mean over every draw's prompts, accumulated in `sized`.
 */
function addChoice(into: StepRollouts["choice"], drawn: StepRequestChoice, sized: Record<string, { prompts: number; members: number }>): void {
  Object.entries(drawn.reasons).forEach(([rule, count], index) => {
    if (into.reasons[rule] === undefined) into.messages.push(...drawn.messages.slice(index, index + 1));
    into.reasons[rule] = (into.reasons[rule] ?? 0) + count;
  });
  for (const [cluster, count] of Object.entries(drawn.targets)) into.targets[cluster] = (into.targets[cluster] ?? 0) + count;
  if (drawn.groupSizes === undefined) return;
  for (const [cluster, size] of Object.entries(drawn.groupSizes)) {
    const prompts = drawn.targets[cluster] ?? 0;
    const entry = (sized[cluster] ??= { prompts: 0, members: 0 });
    entry.prompts += prompts;
    entry.members += prompts * size;
  }
  into.groupSizes = Object.fromEntries(Object.entries(sized).map(([cluster, { prompts, members }]) => [cluster, prompts === 0 ? 0 : members / prompts]));
}
