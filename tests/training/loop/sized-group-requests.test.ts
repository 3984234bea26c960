import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { EpisodeRequest } from "../../../src/core/schemas/episode-request.js";
import type { Environment, EnvironmentClusters } from "../../../src/environments/environment.js";
import { GroupSizingSettingsSchema } from "../../../src/frontier/learnable/group-sizing-settings.js";
import { PassRateWindowSettingsSchema } from "../../../src/frontier/learnable/pass-rate-window-settings.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { addsOnly } from "../../helpers/adds-only-client.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import { ArithmeticProposerEpisode } from "../../../src/tasks/arithmetic/arithmetic-proposer-episode.js";
import { ArithmeticSolverEpisode } from "../../../src/tasks/arithmetic/arithmetic-solver-episode.js";
import { clusterNames } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { openStepRequests } from "../../../src/training/loop/open-step-requests.js";
import { SizedGroupRequests } from "../../../src/training/loop/sized-group-requests.js";
import { UniformRequests } from "../../../src/training/loop/uniform-requests.js";
import { scriptedStepResults } from "../tfjs/scripted-step-results.js";

type Clustered = Environment & { clusters: EnvironmentClusters };

async function exactMatch(): Promise<{ environment: Clustered; arena: Arena }> {
  const environment = (await createExactMatchEnvironment({ prompts: 16, groupSize: 4 })) as Clustered;
  const arena = new Arena({ client: addsOnly, seed: 3 });
  for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(episode, environment.stores[episode.type]);
  return { environment, arena };
}

const sized = (settings: object) => GroupSizingSettingsSchema.parse({ mode: "adaptive", ...settings });
const windows = PassRateWindowSettingsSchema.parse({});

/** Each group's size and cluster, in order: consecutive requests sharing a groupId. */
function groupsOf(requests: readonly EpisodeRequest[], clusters: EnvironmentClusters): { cluster: string; size: number }[] {
  const groups: { id: string; cluster: string; size: number }[] = [];
  for (const request of requests) {
    const last = groups.at(-1);
    if (last && last.id === request.groupId) last.size++;
    else groups.push({ id: request.groupId!, cluster: clusters.of(request.artifact ?? null), size: 1 });
  }
  expect(new Set(groups.map((group) => group.id)).size).toBe(groups.length);
  return groups.map(({ cluster, size }) => ({ cluster, size }));
}

/** G = ⌈log 0.1 / log(1 − p̂)⌉ clamped to [2, 32], p̂ = (successes + 1) / (attempts + 2) from a window snapshot. */
function expectedSize(window: readonly { attempts: number; successes: number }[] | undefined): number {
  const attempts = (window ?? []).reduce((sum, step) => sum + step.attempts, 0);
  const successes = (window ?? []).reduce((sum, step) => sum + step.successes, 0);
  const passRate = (successes + 1) / (attempts + 2);
  return Math.min(32, Math.max(2, Math.ceil(Math.log(0.1) / Math.log(1 - passRate) - 1e-9)));
}

describe("SizedGroupRequests on plan-level groups (exact-match)", () => {
  it("keeps the plan's groups before any outcome (every cluster at the prior), then G = ⌈log 0.1 / log(1 − p̂)⌉ by cluster: big groups for never-solved subtractions, the minimum for solved additions", async () => {
    const { environment, arena } = await exactMatch();
    const requests = new SizedGroupRequests(new UniformRequests(arena, environment), { environment, settings: sized({ keepPlanRollouts: false }), passRates: windows });
    const cold = await requests.choose();
    // p̂ 0.5 everywhere: ⌈log 0.1 / log 0.5⌉ = 4, the plan's size.
    expect(groupsOf(cold.requests, environment.clusters).map((group) => group.size)).toEqual(Array(16).fill(4));
    requests.observe(await arena.generateRollouts(cold.requests));
    const passRates = (requests.snapshot() as { passRates: Record<string, { attempts: number; successes: number }[]> }).passRates;
    const warm = await requests.choose();
    const groups = groupsOf(warm.requests, environment.clusters);
    for (const group of groups) expect(group.size, group.cluster).toBe(expectedSize(passRates[group.cluster]));
    expect(groups.some((group) => group.cluster.startsWith("subtract") && passRates[group.cluster] && group.size > 8)).toBe(true);
    expect(groups.filter((group) => group.cluster.startsWith("add") && passRates[group.cluster]).every((group) => group.size === 2)).toBe(true);
    expect(Object.keys(warm.groupSizes!).sort()).toEqual([...new Set(groups.map((group) => group.cluster))].sort());
  });

  it("keeps a step's rollouts at the plan's 16 × 4 when asked to (the default), moving them to the hard clusters", async () => {
    const { environment, arena } = await exactMatch();
    const requests = new SizedGroupRequests(new UniformRequests(arena, environment), { environment, settings: sized({}), passRates: windows });
    requests.observe(await arena.generateRollouts((await requests.choose()).requests));
    const groups = groupsOf((await requests.choose()).requests, environment.clusters);
    const total = groups.reduce((sum, group) => sum + group.size, 0);
    expect(total).toBeLessThanOrEqual(64);
    expect(total).toBeGreaterThan(64 - 16);
    const mean = (prefix: string) => {
      const of = groups.filter((group) => group.cluster.startsWith(prefix));
      return of.reduce((sum, group) => sum + group.size, 0) / of.length;
    };
    expect(mean("subtract")).toBeGreaterThan(mean("add"));
  });

  it("resumes through openStepRequests (learnable frontier, adaptive groups) to the uninterrupted choices", async () => {
    const frontier = { mode: "learnable" as const, groupSizing: sized({}) };
    const run = async (snapshot?: object) => {
      const { environment, arena } = await exactMatch();
      const requests = openStepRequests({ environment, arena, frontier, prm: undefined, seed: 4, ...(snapshot && { snapshot: snapshot as never }) });
      return { requests, step: async () => { const choice = await requests.choose(); requests.observe(await arena.generateRollouts(choice.requests)); return choice; } };
    };
    const uninterrupted = await run();
    await uninterrupted.step();
    const snapshot = JSON.parse(JSON.stringify(uninterrupted.requests.snapshot())) as object;
    expect(Object.keys(snapshot).sort()).toEqual(["passRates", "selection"]);
    const next = [await uninterrupted.step(), await uninterrupted.step()];
    const resumed = await run(snapshot);
    expect([await resumed.step(), await resumed.step()]).toEqual(next);
    expect(resumed.requests.mode).toBe("learnable");
  });
});

describe("SizedGroupRequests on sub-episode groups (arithmetic's solvers)", () => {
  const arithmetic = () => createArithmeticEnvironment({ proposals: 32 }) as Clustered;
  const arenaOf = () => new Arena({ client: new ScriptedInferenceClient({ rules: [] }), seed: 4 }).register(new ArithmeticProposerEpisode(), ArtifactStore.of(clusterNames().map((cluster) => ({ cluster }))));

  it("asks each proposal for its solvers through clusters.subEpisodeGroups: the configured 8 at the prior, then by pass rate", async () => {
    const environment = arithmetic();
    const requests = new SizedGroupRequests(new UniformRequests(arenaOf(), environment), { environment, settings: sized({}), passRates: windows });
    const cold = await requests.choose();
    expect(cold.requests).toHaveLength(32);
    expect(cold.requests.every((request) => (request.artifact as { solvers: number }).solvers === 8)).toBe(true);

    const raw = new SizedGroupRequests(new UniformRequests(arenaOf(), environment), { environment, settings: sized({ keepPlanRollouts: false }), passRates: windows });
    // add-2x2-no-carry: 2 of 4 right, p̂ = 3/6 → 4; add-1x1-no-carry: 4 of 4, p̂ = 5/6 → ⌈1.29⌉ = 2; unplayed: p̂ 0.5 → 4.
    raw.observe(
      await scriptedStepResults([
        { cluster: "add-2x2-no-carry", problem: "23+45", solvers: ["68", "68", "67", "0"] },
        { cluster: "add-1x1-no-carry", problem: "3+4", solvers: ["7", "7", "7", "7"] },
      ]),
    );
    const expected: Record<string, number> = { "add-2x2-no-carry": 4, "add-1x1-no-carry": 2 };
    for (const request of (await raw.choose()).requests) {
      const { cluster, solvers } = request.artifact as { cluster: string; solvers: number };
      expect(solvers, cluster).toBe(expected[cluster] ?? 4);
    }
  });

  it("runs the asked number of solvers", async () => {
    const client = new ScriptedInferenceClient({ rules: [{ when: /user: propose /, reply: "23+45" }, { when: /=$/, reply: "68" }] });
    const arena = new Arena({ client, seed: 1 }).register(new ArithmeticProposerEpisode({ solvers: 8 })).register(new ArithmeticSolverEpisode());
    const [result] = await arena.generateRollouts([{ episodeType: "arithmetic-propose", artifact: { cluster: "add-2x2-no-carry", solvers: 3 } }]);
    expect(result!.children).toHaveLength(3);
  });
});
