import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import type { AddonModel } from "../../../src/inference/native/AddonTypes.js";
import { timeEngineForward } from "../../../src/inference/native/time-engine-forward.js";
import { nativeAddon, skipNote } from "./native-addon-for-tests.js";

const { binding } = nativeAddon;
/** 512 ids of the tiny model's byte vocabulary (259 tokens). */
const FULL_BATCH = Int32Array.from({ length: 512 }, (_, index) => 3 + (index % 256));

describe.skipIf(binding === undefined)(`the engine's forward timing${skipNote}`, () => {
  let folder: string;
  let modelPath: string;
  let model: AddonModel;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-forward-timing-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 3 })).path;
    model = await binding!.loadModel({ path: modelPath, device: "CPU" });
  });

  afterAll(async () => {
    await model.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it("times each run of a batch with logits at every position: `runs` positive durations, from 1 to 512 tokens", async () => {
    const seconds = await model.timeForward({ tokens: FULL_BATCH, threads: 1, runs: 3 });
    expect(seconds).toBeInstanceOf(Float64Array);
    expect(seconds).toHaveLength(3);
    for (const run of seconds) expect(run).toBeGreaterThan(0);
    const single = await model.timeForward({ tokens: Int32Array.of(7), threads: 2, runs: 1 });
    expect(single).toHaveLength(1);
    expect(single[0]).toBeGreaterThan(0);
  });

  it("rejects bad arguments with the addon's invalid-argument error, never an abort, and keeps working", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /^options: expected \{tokens, threads, runs\}$/],
      [{ tokens: [3, 4], threads: 1, runs: 1 }, /^options\.tokens: expected an Int32Array$/],
      [{ tokens: new Int32Array(0), threads: 1, runs: 1 }, /^options\.tokens: expected from 1 to 512 token ids, got 0$/],
      [{ tokens: new Int32Array(513).fill(3), threads: 1, runs: 1 }, /^options\.tokens: expected from 1 to 512 token ids, got 513$/],
      [{ tokens: Int32Array.of(3, 259), threads: 1, runs: 1 }, /^options\.tokens\[1\]: expected a token id from 0 to 258, got 259$/],
      [{ tokens: Int32Array.of(-1), threads: 1, runs: 1 }, /^options\.tokens\[0\]: expected a token id from 0 to 258, got -1$/],
      [{ tokens: Int32Array.of(3), threads: 0, runs: 1 }, /^options\.threads: expected an integer from 1 to 1024$/],
      [{ tokens: Int32Array.of(3), threads: 1.5, runs: 1 }, /^options\.threads: expected an integer from 1 to 1024$/],
      [{ tokens: Int32Array.of(3), threads: 1, runs: 0 }, /^options\.runs: expected an integer from 1 to 1000$/],
      [{ tokens: Int32Array.of(3), threads: 1 }, /^options\.runs: expected an integer from 1 to 1000$/],
    ];
    for (const [options, message] of cases) {
      await expect(model.timeForward(options as never)).rejects.toMatchObject({ code: "SELFPLAY_INVALID_ARGUMENT", message: expect.stringMatching(message) });
    }
    expect(await model.timeForward({ tokens: Int32Array.of(3, 4), threads: 1, runs: 1 })).toHaveLength(1);
    const disposed = await binding!.loadModel({ path: modelPath, device: "CPU" });
    await disposed.dispose();
    expect(() => disposed.timeForward({ tokens: Int32Array.of(3), threads: 1, runs: 1 })).toThrowError(expect.objectContaining({ code: "SELFPLAY_DISPOSED" }));
  });

  it("timeEngineForward leases the model by path and names the bad option with an InvalidInputError", async () => {
    const seconds = await timeEngineForward({ modelPath, tokens: FULL_BATCH.subarray(0, 64), threads: 1, runs: 2, device: "cpu" });
    expect(seconds).toHaveLength(2);
    for (const run of seconds) expect(run).toBeGreaterThan(0);
    await expect(timeEngineForward({ modelPath, tokens: Int32Array.of(400), threads: 1, runs: 1, device: "cpu" })).rejects.toThrowError(
      new InvalidInputError("options.tokens[0]", "a token id from 0 to 258, got 400"),
    );
    await expect(timeEngineForward({ modelPath, tokens: Int32Array.of(3), threads: 0, runs: 1 })).rejects.toThrowError(/^threads: got 0; expected/);
    await expect(timeEngineForward({ modelPath, tokens: [3] as never, threads: 1, runs: 1 })).rejects.toThrowError(/^tokens: got \[3\]; expected an Int32Array of token ids$/);
  });
});
