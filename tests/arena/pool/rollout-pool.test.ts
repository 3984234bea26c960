import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { Arena, type ArenaOptions } from "../../../src/arena/arena.js";
import { ModelGateway } from "../../../src/arena/model-gateway.js";
import { RolloutPool } from "../../../src/arena/pool/rollout-pool.js";
import { RolloutPoolOptionsSchema, type RolloutPoolOptions } from "../../../src/arena/pool/rollout-pool-options.js";
import { EpisodeModuleError, RolloutPoolError } from "../../../src/arena/pool/errors/index.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { InferenceClient } from "../../../src/core/inference-client.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { ManualClock } from "./manual-clock.js";
import { ARITHMETIC_RULES, GatedClient, episodeModule, faultFiles, faulty, question, registerEpisodes } from "./pool-fixtures.js";

const RUN_AND_EXIT = fileURLToPath(new URL("./fixtures/run-and-exit.mjs", import.meta.url));

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((closable) => closable.close()));
});

async function pooledArena(pool: Omit<RolloutPoolOptions, "episodes">, files?: object, options: Partial<ArenaOptions> = {}) {
  const module = episodeModule(files ? { ...files } : undefined);
  const client = options.client ?? new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
  const arena = new Arena({ client, seed: 5, ...options, pool: { episodes: module, ...pool } });
  open.push(arena);
  return registerEpisodes(arena, module);
}

async function inProcessArena(files?: object, options: Partial<ArenaOptions> = {}) {
  const client = options.client ?? new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
  return registerEpisodes(new Arena({ client, seed: 5, ...options }), episodeModule(files ? { ...files } : undefined));
}

function attempts(log: string): string[] {
  return readFileSync(log, "utf8").trim().split("\n").sort();
}

const placement = (index: number) => ({ rolloutId: `ep${index}`, groupId: `ep${index}` });

/** A pool used without an arena, as the arena uses it. */
function directPool(client: InferenceClient, options: RolloutPoolOptions, clock?: ManualClock): RolloutPool {
  const runtime = {
    seed: 1,
    samplerDefaults: DEFAULT_SAMPLER,
    client,
    policy: new ModelGateway(client),
    policyCapabilities: client.capabilities,
    judge: new ModelGateway(client),
    judgeCapabilities: client.capabilities,
    judgeIsPolicy: true,
    signal: undefined,
    concurrency: 1,
    ...(clock && { clock }),
  };
  const pool = new RolloutPool(RolloutPoolOptionsSchema.parse(options), runtime);
  open.push(pool);
  return pool;
}

const statusOf = (result: GenerateResult | undefined) => (result?.outcome.status === "failed" ? `${result.outcome.stage}:${result.outcome.error.name}` : result?.outcome.status);

describe("RolloutPool failure paths", () => {
  it("replaces a worker that throws outside its episode, retries the episode once in a worker of its own, then records it as failed", async () => {
    const files = faultFiles();
    // Both run at once on one worker: the healthy neighbour dies with it and must come back intact.
    const arena = await pooledArena({ workers: 1, episodesPerWorker: 2 }, files);
    const results = await arena.generateRollouts([faulty("throw"), question(2, 3)]);
    expect(results.map(statusOf)).toEqual(["rollout:RolloutWorkerCrashedError", "scored"]);
    expect(results[0]?.outcome).toMatchObject({ error: { message: expect.stringMatching(/rollout ep0 \(episode "faulty"\).*thrown outside the episode/) } });
    expect(results[0]?.rollout).toMatchObject({ id: "ep0", episodeType: "faulty", steps: [], artifact: faulty("throw").artifact });
    expect(attempts(files.attemptLog)).toEqual(["ep0", "ep0"]);
    // A fault that happens once costs one retry, and the retry gives what the in-process arena gives.
    const [recovered] = await arena.generateRollouts([faulty("throw", true)]);
    expect(attempts(files.attemptLog)).toEqual(["ep0", "ep0", "ep2", "ep2"]);
    const inProcess = await inProcessArena(files);
    await inProcess.generateRollouts([question(2, 3), question(2, 3)]);
    expect(recovered).toEqual((await inProcess.generateRollouts([faulty("throw", true)]))[0]);
    expect(recovered?.rewards).toEqual({ answerer: 1 });
    expect(results[1]).toEqual((await (await inProcessArena(files)).generateRollouts([question(9, 9), question(2, 3)]))[1]);
  });

  it("handles a worker that exits the same way, and records the stage it died in", async () => {
    const files = faultFiles();
    const arena = await pooledArena({ workers: 2, episodesPerWorker: 1 }, files);
    const results = await arena.generateRollouts([faulty("exit"), faulty("exit", true), faulty("exit-in-score"), question(1, 1)]);
    expect(results.map(statusOf)).toEqual(["rollout:RolloutWorkerCrashedError", "scored", "score:RolloutWorkerCrashedError", "scored"]);
    expect(results[0]?.outcome).toMatchObject({ error: { message: expect.stringContaining("worker exited with code: 3") } });
    expect(results[2]?.outcome).toMatchObject({ error: { message: expect.stringContaining("worker exited with code: 4") } });
    expect(attempts(files.attemptLog)).toEqual(["ep0", "ep0", "ep1", "ep1", "ep2", "ep2"]);
    // The pool goes on with replaced workers.
    const [again] = await arena.generateRollouts([question(3, 4)]);
    expect(again?.rewards).toEqual({ answerer: 1 });
  });

  it("kills and replaces a worker that hangs past its timeout", async () => {
    const files = faultFiles();
    const arena = await pooledArena({ workers: 1, episodesPerWorker: 2, taskTimeoutMs: 500 }, files);
    const results = await arena.generateRollouts([faulty("hang"), question(5, 6)]);
    expect(results.map(statusOf)).toEqual(["rollout:RolloutTimeoutError", "scored"]);
    expect(results[0]?.outcome).toMatchObject({ error: { message: expect.stringContaining("ran past pool.taskTimeoutMs (500 ms") } });
    expect(attempts(files.attemptLog)).toEqual(["ep0", "ep0"]);
    const [recovered] = await arena.generateRollouts([faulty("hang", true)]);
    expect(recovered?.rewards).toEqual({ answerer: 1 });
    expect(attempts(files.attemptLog)).toEqual(["ep0", "ep0", "ep2", "ep2"]);
  });

  it("records an episode's own error once, without a retry, exactly as in-process", async () => {
    const files = faultFiles();
    const requests = [faulty("episode-error"), question(2, 2)];
    const pooled = await (await pooledArena({ workers: 1 }, files)).generateRollouts(requests);
    expect(attempts(files.attemptLog)).toEqual(["ep0"]);
    expect(pooled).toEqual(await (await inProcessArena(files)).generateRollouts(requests));
    expect(pooled[0]?.outcome).toEqual({ status: "failed", stage: "rollout", error: { name: "Error", message: "the episode's own error" } });
  });

  it("aborts mid-batch: running episodes see aborted model calls, queued ones are not started — as in-process", async () => {
    const run = async (pooled: boolean) => {
      const controller = new AbortController();
      const client = new GatedClient(2);
      const options = { client, signal: controller.signal, concurrency: 2 };
      const arena = pooled ? await pooledArena({ workers: 1, maxQueue: 1 }, undefined, options) : await inProcessArena(undefined, options);
      const batch = arena.generateRollouts([1, 2, 3, 4, 5, 6].map((value) => question(value, value)));
      await client.arrived;
      controller.abort();
      client.release();
      return batch;
    };
    const pooled = await run(true);
    expect(pooled.map(statusOf)).toEqual(["scored", "scored", ...Array(4).fill("artifact:RolloutAbortedError")]);
    expect(pooled[0]?.rollout.steps[0]?.finishReason).toBe("abort");
    expect(pooled).toEqual(await run(false));
  });

  it("does not count time in model calls against the timeout", async () => {
    const files = faultFiles();
    const client = new GatedClient(1);
    const clock = new ManualClock();
    const pool = directPool(client, { workers: 1, taskTimeoutMs: 1000, episodes: episodeModule({ ...files }) }, clock);
    const { result: running } = await pool.submit(faulty("none"), placement(0));
    await client.arrived; // the episode started (its timer with it) and waits in its model call
    clock.advance(60_000);
    client.release();
    expect((await running).rewards).toEqual({ answerer: 1 });
    // Had the call counted, the worker would have been killed and the episode tried twice.
    expect(attempts(files.attemptLog)).toEqual(["ep0"]);
  });

  it("applies backpressure: a submission waits while the queue is full", async () => {
    const client = new GatedClient(1);
    const pool = directPool(client, { workers: 1, maxQueue: 1, episodes: episodeModule() });
    const first = await pool.submit(question(1, 2), placement(0));
    const second = await pool.submit(question(3, 4), placement(1));
    let thirdAccepted = false;
    const third = pool.submit(question(5, 6), placement(2)).then((accepted) => {
      thirdAccepted = true;
      return accepted;
    });
    await client.arrived; // the first episode is in its model call, the second queued behind it
    expect(thirdAccepted).toBe(false);
    client.release();
    const results = await Promise.all([first.result, second.result, (await third).result]);
    expect(results.map((result) => result.rewards)).toEqual([{ answerer: 1 }, { answerer: 1 }, { answerer: 1 }]);
  });

  it("shuts down cleanly: close() lets accepted episodes finish, ends the workers, and refuses more work", async () => {
    const arena = await pooledArena({ workers: 2 });
    const batch = arena.generateRollouts([question(1, 1), question(2, 2), question(3, 3)]);
    const closed = arena.close();
    expect((await batch).map((result) => result.rewards)).toEqual([{ answerer: 1 }, { answerer: 1 }, { answerer: 1 }]);
    await closed;
    await expect(arena.generateRollouts([question(1, 1)])).rejects.toThrow(RolloutPoolError);
  });

  it("leaves nothing behind after close(): a process that used a pool exits on its own", async () => {
    // If a worker, port or timer survived close(), the child would never exit and execFile would kill it.
    const { stdout } = await promisify(execFile)(process.execPath, [RUN_AND_EXIT], { timeout: 50_000 });
    expect(JSON.parse(stdout)).toEqual(Array(4).fill({ answerer: 1 }));
  });

  it("runs in-process with workers: 0, and names the field when pool options are wrong", async () => {
    const client = new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
    const arena = await registerEpisodes(new Arena({ client, seed: 5, pool: { workers: 0 } }), episodeModule());
    expect((await arena.generateRollouts([question(2, 5)]))[0]?.rewards).toEqual({ answerer: 1 });
    await arena.close();
    expect(() => new Arena({ client, seed: 5, pool: { workers: 2 } })).toThrow(/pool\.episodes: .*expected an episode module/);
    expect(() => new Arena({ client, seed: 5, pool: { workers: 1, engine: "per-worker", episodes: episodeModule() } })).toThrow(InvalidInputError);
    expect(() => new Arena({ client, seed: 5, pool: { workers: 1, engine: "per-worker", episodes: episodeModule() } })).toThrow(/pool\.engine.*WorkerEngineClient/);
  });

  it("refuses an episode module that does not load, has no such factory, or lacks an episode type the arena runs", async () => {
    const client = new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
    const cases: Array<[RolloutPoolOptions["episodes"], RegExp]> = [
      [{ module: "./no/such/module.mjs" }, /does not load/],
      [{ ...episodeModule(), exportName: "notAFactory" }, /export "notAFactory" is number, not a factory/],
      [episodeModule(), /its factory gives "question", "propose", "solve" but the arena runs "faulty"/],
    ];
    for (const [episodes, message] of cases) {
      const arena = new Arena({ client, seed: 5, pool: { workers: 1, episodes } });
      open.push(arena);
      await registerEpisodes(arena, episodeModule({ ...faultFiles() }));
      const error = await arena.generateRollouts([faulty("none")]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EpisodeModuleError);
      expect((error as Error).message).toMatch(message);
    }
  });
});
