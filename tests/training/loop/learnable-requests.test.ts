import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { Environment } from "../../../src/environments/environment.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { addsOnly } from "../../helpers/adds-only-client.js";
import { createDatasetEnvironment } from "../../../src/tasks/dataset/dataset-environment.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { LearnableRequests, type LearnableRequestsOptions } from "../../../src/training/loop/learnable-requests.js";
import { UniformRequests } from "../../../src/training/loop/uniform-requests.js";

/** The default exact-match environment (clustered by operation, carry/borrow and size) on the scripted client. */
async function setUp(prompts = 16, client = addsOnly): Promise<{ environment: Environment; arena: Arena }> {
  const environment = await createExactMatchEnvironment({ prompts, groupSize: 4 });
  const arena = new Arena({ client, seed: 3, concurrency: 1 });
  for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(episode, environment.stores[episode.type]);
  return { environment, arena };
}

async function learnable(options: Partial<LearnableRequestsOptions> = {}) {
  const { environment, arena } = await setUp();
  const requests = new LearnableRequests({ environment, arena, seed: 1, ...options });
  return {
    requests,
    environment,
    /** Chooses a step, runs it and feeds its results back. */
    step: async () => {
      const choice = await requests.choose();
      requests.observe(await arena.generateRollouts(choice.requests));
      return choice;
    },
  };
}

const share = (targets: Record<string, number>, prefix: string) =>
  Object.entries(targets).filter(([cluster]) => cluster.startsWith(prefix)).reduce((sum, [, count]) => sum + count, 0) / Object.values(targets).reduce((sum, count) => sum + count, 0);

describe("LearnableRequests", () => {
  it("tries every cluster at the prior, then leaves the always- and never-solved clusters to the uniform floor", async () => {
    const { requests, environment, step } = await learnable({ settings: { uniformFloor: 0.2 } });
    const first = await step();
    expect(first.requests).toHaveLength(16 * 4);
    expect(first.requests.every((request, index) => request.groupId === `l0.0.${Math.floor(index / 4)}`)).toBe(true);
    expect(Object.keys(first.reasons).every((rule) => rule === "learnable-weighted" || rule === "uniform-floor")).toBe(true);
    for (let played = 0; played < 6; played++) await step();
    // Every cluster is now either solved every time (p̂ → 1) or never (p̂ → 0): each weight is small, the unplayed prior gone.
    const clusters = environment.clusters!;
    const passRates = (requests.snapshot() as { passRates: Record<string, unknown[]> }).passRates;
    expect(Object.keys(passRates).sort()).toEqual([...clusters.names]);
    const drawn = { learnable: 0, floor: 0 };
    for (let round = 0; round < 20; round++) {
      const choice = await requests.choose();
      drawn.learnable += choice.reasons["learnable-weighted"] ?? 0;
      drawn.floor += choice.reasons["uniform-floor"] ?? 0;
    }
    expect(drawn.floor / (drawn.floor + drawn.learnable)).toBeCloseTo(0.2, 1);
  });

  it("sends most prompts to a cluster the policy half-solves", async () => {
    // Additions with a carry are answered wrong half the time; the rest as in addsOnly.
    let carries = 0;
    const halfCarry = new ScriptedInferenceClient({
      rules: [
        {
          when: () => true,
          reply: (request: GenerationRequest) => {
            const [a, operation, b] = (request.messages.at(-1)?.content ?? "").match(/(\d+)([+-])(\d+)/)!.slice(1).map((part) => (part === "+" || part === "-" ? part : Number(part))) as [number, string, number];
            if (operation === "-") return "0";
            if ((a % 10) + (b % 10) >= 10) return carries++ % 2 === 0 ? String(a + b) : "0";
            return String(a + b);
          },
        },
      ],
    });
    const { environment, arena } = await setUp(32, halfCarry);
    const requests = new LearnableRequests({ environment, arena, seed: 5, settings: { uniformFloor: 0 } });
    for (let played = 0; played < 4; played++) requests.observe(await arena.generateRollouts((await requests.choose()).requests));
    const targets: Record<string, number> = {};
    for (let round = 0; round < 5; round++) for (const [cluster, count] of Object.entries((await requests.choose()).targets)) targets[cluster] = (targets[cluster] ?? 0) + count;
    // The two carry clusters weigh ≈ 0.25 each, the five others (p̂ near 0 or 1) ≈ 0.03: about 0.77 of the draws, where uniform gives 2/7.
    expect(share(targets, "add-carry")).toBeGreaterThan(0.65);
  });

  it("draws clusters by their share of the store's rows, not uniformly over their names (a 9-row cluster beside an 81-row one)", async () => {
    const rows = [
      ...Array.from({ length: 81 }, (_, index) => ({ question: `big ${index}`, answer: "1", kind: "big" })),
      ...Array.from({ length: 9 }, (_, index) => ({ question: `small ${index}`, answer: "1", kind: "small" })),
    ];
    const environment = await createDatasetEnvironment({ data: rows, prompt: "question", cluster: "kind", heldOut: 0, prompts: 30, groupSize: 4 });
    const arena = new Arena({ client: addsOnly, seed: 3, concurrency: 1 });
    for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(episode, environment.stores[episode.type]);
    // Nothing played: both clusters have the prior's pass rate, so the weights are the shares, 0.9 and 0.1.
    const requests = new LearnableRequests({ environment, arena, seed: 2 });
    const targets: Record<string, number> = {};
    for (let round = 0; round < 40; round++) for (const [cluster, count] of Object.entries((await requests.choose()).targets)) targets[cluster] = (targets[cluster] ?? 0) + count;
    expect(share(targets, "small")).toBeGreaterThan(0.07);
    expect(share(targets, "small")).toBeLessThan(0.13);
  });

  it("resumes from its snapshot and chooses what the uninterrupted one chooses", async () => {
    const uninterrupted = await learnable();
    await uninterrupted.step();
    await uninterrupted.step();
    const snapshot = JSON.parse(JSON.stringify(uninterrupted.requests.snapshot()));
    const next = [await uninterrupted.step(), await uninterrupted.step()];

    const resumed = await learnable({ snapshot });
    expect([await resumed.step(), await resumed.step()]).toEqual(next);
    expect(resumed.requests.snapshot()).toEqual(uninterrupted.requests.snapshot());
  });

  it("refuses an environment without clusters, and a checkpoint state of another shape naming the field", async () => {
    const { environment, arena } = await setUp();
    const { clusters: _clusters, ...unclustered } = environment;
    expect(() => new LearnableRequests({ environment: unclustered, arena, seed: 1 })).toThrow(/frontier\.mode.*declares no clusters/);
    expect(() => new LearnableRequests({ environment, arena, seed: 1, snapshot: { passRates: {}, choices: -1 } })).toThrow(/checkpoint\.frontier\./);
    expect(() => new LearnableRequests({ environment, arena, seed: 1, settings: { uniformFloor: 2 } })).toThrow(/frontier\.learnable\.uniformFloor/);
  });
});

describe("UniformRequests on the clustered exact-match environment", () => {
  it("counts its draws by cluster, a prompt once however large its group (as the learnable and PRM modes count)", async () => {
    const { environment, arena } = await setUp();
    const choice = await new UniformRequests(arena, environment).choose();
    expect(choice.requests).toHaveLength(64);
    expect(choice.reasons).toEqual({ uniform: 16 });
    expect(Object.values(choice.targets).reduce((sum, count) => sum + count, 0)).toBe(16);
    expect(Object.keys(choice.targets).every((cluster) => environment.clusters!.names.includes(cluster))).toBe(true);
  });
});
