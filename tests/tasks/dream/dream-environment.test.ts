import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { ChallengeSchema, challengeId } from "../../../src/dream/challenges/challenge.js";
import { pickTemplate } from "../../../src/dream/templates/pick-template.js";
import { createDreamEnvironment, dreamStepSummary } from "../../../src/tasks/dream/dream-environment.js";
import { createDreamEpisodes } from "../../../src/tasks/dream/dream-episodes.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

const EPISODE_OPTIONS = { maxTokens: 2048, sandbox: { timeoutMs: 10_000, memoryMb: 256 } };

function templated() {
  const rendered = pickTemplate("algorithms", "basic", deriveStream(1, "dream-environment-test"), null);
  if (rendered === null) throw new Error("no algorithms template");
  return rendered;
}

/** The solver alternates: the reference solution (passes), then a program that writes nothing (fails). */
function alternatingSolver(referenceSolution: string): ScriptedInferenceClient {
  let calls = 0;
  return new ScriptedInferenceClient({
    rules: [{ when: () => true, reply: () => (calls++ % 2 === 0 ? "```js\n" + referenceSolution + "\n```" : "```js\nconsole.log('no answer');\n```") }],
  });
}

describe("the dream environment", () => {
  it("renders training challenges per cluster, apart from the held-out ones, and declares the templates' clusters", () => {
    const environment = createDreamEnvironment({ challengesPerCluster: 3, evaluateChallengesPerCluster: 1 });
    expect(environment.name).toBe("dream");
    expect(environment.plan).toEqual([{ episodeType: "dream", count: 4, groupSize: 4 }]);
    expect(environment.clusters?.names).toEqual(["data-analysis", "regex-parse", "algorithms", "promise-concurrency", "json-transform", "text-processing"]);
    const store = environment.stores["dream"]!;
    expect(store.size).toBe(18);
    expect(environment.samplerDefaults).toEqual({ maxTokens: 768 });
    // Deterministic in the seed: the same options render the same challenges.
    expect(createDreamEnvironment({ challengesPerCluster: 3, evaluateChallengesPerCluster: 1 }).stores["dream"]!.snapshot()).toEqual(store.snapshot());
    const algorithms = createDreamEnvironment({ clusters: ["algorithms"], tiers: { algorithms: "advanced" }, challengesPerCluster: 2 });
    const entry = algorithms.stores["dream"]!.sample(deriveStream(0, "pick"));
    expect(algorithms.clusters?.of(entry.artifact)).toBe("algorithms");
    expect((entry.artifact as { challenge: { tier: string } }).challenge.tier).toBe("advanced");
  });

  it("refuses a misspelt option, naming it under environment", async () => {
    await expect(loadEnvironment("dream", { prompt: 4 })).rejects.toThrow(/environment\.prompt/);
    await expect(loadEnvironment("dream", { tier: "hard" })).rejects.toThrow(/environment\.tier/);
  });

  it("grades a passing and a failing attempt in one group by running them: records with advantages of opposite sign", async () => {
    const { challenge, referenceSolution } = templated();
    const arena = new Arena({ client: alternatingSolver(referenceSolution), seed: 3 });
    for (const episode of createDreamEpisodes(EPISODE_OPTIONS)) arena.register(episode, ArtifactStore.of([{ challenge, playbookBlock: "" }]));
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "dream", count: 1, groupSize: 2 }]));
    expect(results.map((result) => result.outcome.status)).toEqual(["scored", "scored"]);
    expect(results.map((result) => result.rewards["dream-solver"]).sort()).toEqual([0, 1]);
    // The solver saw the dream solver's prompt: its system prompt and the task.
    const prompt = results[0]!.rollout.steps[0]!;
    expect(prompt.roleId).toBe("dream-solver");
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    expect(batch.records).toHaveLength(2);
    const [first, second] = batch.records;
    expect(first!.advantage * second!.advantage).toBeLessThan(0);
    expect(batch.records.find((record) => record.reward === 1)!.advantage).toBeGreaterThan(0);
    expect(dreamStepSummary(results)).toEqual({ attempts: 2, graded: 2, passed: 1, passRate: 0.5, ungradable: 0, failed: 0 });
  }, 30_000);

  it("leaves out the attempts at a challenge that cannot grade (its setup fails), and counts them", async () => {
    const { challenge, referenceSolution } = templated();
    const broken = { ...challenge, setup: "process.exit(3);\n" };
    const brokenChallenge = ChallengeSchema.parse({ ...broken, id: challengeId(broken) });
    const arena = new Arena({ client: alternatingSolver(referenceSolution), seed: 3 });
    for (const episode of createDreamEpisodes(EPISODE_OPTIONS)) arena.register(episode, ArtifactStore.of([{ challenge: brokenChallenge }]));
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "dream", count: 1, groupSize: 2 }]));
    for (const result of results) expect(result.outcome).toMatchObject({ status: "failed", stage: "score", error: { name: "UngradableChallengeError" } });
    expect(arena.buildTrainingBatch(results, arena.assignCredit(results), 0).records).toHaveLength(0);
    expect(dreamStepSummary(results)).toEqual({ attempts: 2, graded: 0, passed: 0, passRate: 0, ungradable: 2, failed: 0 });
  }, 30_000);

  it("evaluates the greedy pass rate on held-out challenges", async () => {
    const environment = createDreamEnvironment({ clusters: ["algorithms"], evaluateChallengesPerCluster: 2 });
    const client = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: "```js\nconsole.log(1);\n```" }] });
    expect(await environment.evaluate!(client)).toEqual({ heldOutAccuracy: 0, n: 2 });
  }, 30_000);
});
