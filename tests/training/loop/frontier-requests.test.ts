import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { FRONTIER_TARGET_HINT } from "../../../src/frontier/tracker/frontier-decision.js";
import type { PrmScorer } from "../../../src/frontier/prm/prm-scorer.js";
import type { PrmState } from "../../../src/frontier/prm/prm-state.js";
import { ArithmeticProposerEpisode } from "../../../src/tasks/arithmetic/arithmetic-proposer-episode.js";
import { clusterNames } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import type { Environment } from "../../../src/environments/environment.js";
import { FrontierRequests, type FrontierRequestsOptions } from "../../../src/training/loop/frontier-requests.js";
import { UniformRequests } from "../../../src/training/loop/uniform-requests.js";
import { QUIZ, createEnvironment as createLabellingEnvironment, createLabellingEpisodes, scriptedLabellingResults } from "../../helpers/labelling-environment.js";
import { scriptedStepResults } from "../tfjs/scripted-step-results.js";

const CLUSTERS = clusterNames();

/** The arithmetic environment with a plan of `count()` proposals (the tests vary it between steps). */
function arithmeticWith(count: () => number): Environment {
  const base = createArithmeticEnvironment();
  return { ...base, get plan() { return [{ episodeType: "arithmetic-propose", count: count() }]; } };
}

const arenaOf = () => new Arena({ client: new ScriptedInferenceClient({ rules: [] }), seed: 4 }).register(new ArithmeticProposerEpisode(), ArtifactStore.of(CLUSTERS.map((cluster) => ({ cluster }))));

/** FrontierRequests whose `choose(n)` asks for n proposals. */
function frontier(options: Omit<FrontierRequestsOptions, "environment" | "arena">) {
  let count = 0;
  const requests = new FrontierRequests({ environment: arithmeticWith(() => count), arena: arenaOf(), ...options });
  return {
    choose: (n: number) => ((count = n), requests.choose()),
    observe: (results: Parameters<FrontierRequests["observe"]>[0]) => requests.observe(results),
    snapshot: () => requests.snapshot(),
  };
}

/** A PRM unsure of additions (p 0.5) and sure of subtractions (p 0.99), that remembers what it scored. */
class RecordingPrm implements PrmScorer {
  readonly states: PrmState[] = [];
  async score(states: readonly PrmState[]): Promise<number[]> {
    this.states.push(...states);
    return states.map((state) => (state.cluster.startsWith("add") ? 0.5 : 0.99));
  }
}

/** A step in which add-2x2-no-carry is half solved and add-1x1-no-carry fully. */
const stepResults = () =>
  scriptedStepResults([
    { cluster: "add-2x2-no-carry", problem: "23+45", solvers: ["68", "68", "67", "0"] },
    { cluster: "add-1x1-no-carry", problem: "3+4", solvers: ["7", "7", "7", "7"] },
  ]);

describe("FrontierRequests", () => {
  it("falls back to pickSeed on a cold start, then weights clusters by the PRM and logs FRONTIER TARGET", async () => {
    const prm = new RecordingPrm();
    const targets = frontier({ scorer: prm, seed: 1, settings: { uniformSampleProbability: 0 } });
    const cold = await targets.choose(8);
    expect(cold.reasons).toEqual({ "fallback:cold-start": 8 });
    expect(cold.requests).toHaveLength(8);
    expect(cold.requests.every((request) => request.episodeType === "arithmetic-propose" && CLUSTERS.includes((request.artifact as { cluster: string }).cluster))).toBe(true);
    expect(Object.values(cold.targets).reduce((sum, count) => sum + count, 0)).toBe(8);
    expect(cold.messages).toHaveLength(1);
    expect(cold.messages[0]).toMatch(/^frontier fallback \(cold start: no trajectories yet\) → /);

    targets.observe(await stepResults());
    const warm = await targets.choose(40);
    expect(warm.reasons).toEqual({ "prm-weighted": 40 });
    expect(warm.messages[0]!.startsWith(FRONTIER_TARGET_HINT)).toBe(true);
    // Subtractions are certain (weight 0.02 × rarity), additions uncertain: the draws go to additions.
    const additions = Object.entries(warm.targets).filter(([cluster]) => cluster.startsWith("add")).reduce((sum, [, count]) => sum + count, 0);
    expect(additions).toBeGreaterThan(30);
    // A played cluster is scored on its latest problem, an unplayed one on its first training problem, both from an empty prefix.
    expect(prm.states).toContainEqual({ task: "23+45=", cluster: "add-2x2-no-carry", prefix: "" });
    expect(prm.states).toContainEqual({ task: "3+4=", cluster: "add-1x1-no-carry", prefix: "" });
    expect(prm.states).toContainEqual({ task: "1+9=", cluster: "add-1x1-carry", prefix: "" });
    expect(prm.states.filter((state) => state.cluster === "add-1x1-carry").every((state) => state.task === "1+9=")).toBe(true);
  });

  it("gives a cluster solved cleanly in its last two steps weight 0", async () => {
    const targets = frontier({ scorer: new RecordingPrm(), seed: 1, settings: { uniformSampleProbability: 0 } });
    targets.observe(await stepResults());
    expect((await targets.choose(200)).targets["add-1x1-no-carry"]).toBeGreaterThan(0);
    targets.observe(await stepResults());
    const saturated = await targets.choose(200);
    expect(saturated.reasons).toEqual({ "prm-weighted": 200 });
    expect(saturated.targets["add-1x1-no-carry"]).toBeUndefined();
    expect(saturated.messages[0]).toMatch(/; saturated: add-1x1-no-carry$/);
  });

  it("takes the uniform-sample roll at its rate and falls back when the PRM throws", async () => {
    const throwing: PrmScorer = { score: async () => Promise.reject(new Error("onnxruntime is gone")) };
    const targets = frontier({ scorer: throwing, seed: 2 });
    targets.observe(await stepResults());
    const choice = await targets.choose(200);
    expect(Object.keys(choice.reasons).sort()).toEqual(["fallback:prm-error", "fallback:uniform-sample-roll"]);
    expect(choice.reasons["fallback:uniform-sample-roll"]! / 200).toBeCloseTo(0.2, 1);
    expect(choice.messages.find((message) => message.includes("PRM error"))).toMatch(/Error: onnxruntime is gone/);
  });

  it("resumes from its snapshot and chooses what the uninterrupted one chooses", async () => {
    const results = await stepResults();
    const uninterrupted = frontier({ scorer: new RecordingPrm(), seed: 3 });
    uninterrupted.observe(results);
    await uninterrupted.choose(10);
    const snapshot = JSON.parse(JSON.stringify(uninterrupted.snapshot()));
    const next = await uninterrupted.choose(20);
    uninterrupted.observe(results);
    const after = await uninterrupted.choose(20);

    const resumed = frontier({ scorer: new RecordingPrm(), seed: 3, snapshot });
    expect(await resumed.choose(20)).toEqual(next);
    resumed.observe(results);
    expect(await resumed.choose(20)).toEqual(after);
    expect(resumed.snapshot()).toEqual(uninterrupted.snapshot());
  });
});

describe("UniformRequests", () => {
  it("draws the arena's batch of the environment's plan, as selfplay train always did", async () => {
    const choice = await new UniformRequests(arenaOf(), arithmeticWith(() => 16)).choose();
    expect(choice.requests).toEqual(arenaOf().getBatch([{ episodeType: "arithmetic-propose", count: 16 }]));
    expect(choice.reasons).toEqual({ uniform: 16 });
    expect(Object.values(choice.targets).reduce((sum, count) => sum + count, 0)).toBe(16);
  });
});

describe("FrontierRequests on any environment that declares clusters", () => {
  it("draws the clustered episode's artifacts of the chosen cluster and scores each cluster's latest task as prm label writes it", async () => {
    const environment = createLabellingEnvironment({ clustered: true });
    const arena = new Arena({ client: new ScriptedInferenceClient({ rules: [] }), seed: 4 });
    for (const episode of createLabellingEpisodes()) arena.register(episode, environment.stores[episode.type]);
    // Two-digit answers uncertain, one-digit ones certain.
    const states: PrmState[] = [];
    const scorer: PrmScorer = { score: async (batch) => (states.push(...batch), batch.map((state) => (state.cluster === "two-digit" ? 0.5 : 0.99))) };
    const requests = new FrontierRequests({ environment, arena, scorer, seed: 2, settings: { uniformSampleProbability: 0 } });
    const [twos, fives] = QUIZ as [(typeof QUIZ)[number], (typeof QUIZ)[number]];
    expect((await requests.choose()).reasons).toEqual({ "fallback:cold-start": 2 });
    // The default outcomes: each scored quiz rollout is one attempt at its cluster, solved when its reward is positive.
    requests.observe(await scriptedLabellingResults([{ episodeType: "quiz", question: twos }, { episodeType: "quiz", question: fives }], { "2+2=": ["5"], "5+5=": ["11"] }));
    const warm = await requests.choose();
    expect(warm.reasons).toEqual({ "prm-weighted": 2 });
    expect(warm.targets).toEqual({ "two-digit": 2 });
    expect(warm.requests).toEqual([{ episodeType: "quiz", artifact: fives }, { episodeType: "quiz", artifact: fives }]);
    // The states of `selfplay prm label` for these rollouts at an empty prefix (tests/cli/prm-command.test.ts).
    expect(states).toContainEqual({ task: "2+2=", cluster: "one-digit", prefix: "" });
    expect(states).toContainEqual({ task: "5+5=", cluster: "two-digit", prefix: "" });
  });
});
