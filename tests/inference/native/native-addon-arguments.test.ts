import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import type { AddonGenerationRequest } from "../../../src/inference/native/AddonTypes.js";
import { nativeAddon, skipNote } from "./native-addon-for-tests.js";

const { binding } = nativeAddon;

const good: AddonGenerationRequest = { promptTokens: Int32Array.of(1, 60), maxTokens: 2, temperature: 1, topK: 0, topP: 1, minP: 0, seed: 1 };

/** The binding itself, called the way no typed wrapper would: every misuse must be a JavaScript error, never a crash. */
describe.skipIf(binding === undefined)(`native addon arguments${skipNote}`, () => {
  const addon = binding!;
  let modelPath: string;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-native-arguments-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
  });

  it("names what it was built against and the library it uses", () => {
    expect(addon.llamaCppRelease).toMatch(/\S/);
    expect(addon.llamaCppCommit).toMatch(/^[0-9a-f]{40}$/);
    const [library] = addon.findLoadedLlamaLibraries();
    expect(library).toMatch(/libllama\.[^/]*\.(so|dylib)/);
    expect(() => addon.bindLlamaLibrary(library!)).not.toThrow();
    expect(() => addon.bindLlamaLibrary("/elsewhere/libllama.so")).toThrowError(/already uses/);
    expect(() => addon.bindLlamaLibrary(42 as never)).toThrowError(TypeError);
  });

  it("rejects models and engines it cannot make", async () => {
    expect(() => addon.loadModel(undefined as never)).toThrowError(TypeError);
    expect(() => addon.loadModel({ path: modelPath, device: 5 as never })).toThrowError(/options\.device/);
    expect(() => addon.loadModel({ path: modelPath, device: "NoSuchDevice0" })).toThrowError(/no device NoSuchDevice0 \(found: CPU/);
    await expect(addon.loadModel({ path: join(tmpdir(), "no-such-model.gguf"), device: "CPU" })).rejects.toMatchObject({ code: "SELFPLAY_LOAD_FAILED" });
    const model = await addon.loadModel({ path: modelPath, device: "CPU" });
    expect(model.vocabularySize).toBe(259);
    const options = { sequences: 2, contextSize: 256, threads: 1, exact: true };
    expect(() => model.createEngine({ ...options, sequences: 0 })).toThrowError(/options\.sequences/);
    expect(() => model.createEngine({ ...options, threads: Number.NaN })).toThrowError(/options\.threads/);
    expect(() => model.createEngine({ ...options, exact: "yes" as never })).toThrowError(/options\.exact/);
    await expect(model.createEngine({ ...options, loraPath: join(tmpdir(), "no-such-adapter.gguf") })).rejects.toMatchObject({ code: "SELFPLAY_LOAD_FAILED" });
    const engine = await model.createEngine(options);
    // An engine keeps its model alive after the model is disposed.
    await model.dispose();
    expect(() => model.createEngine(options)).toThrowError(expect.objectContaining({ code: "SELFPLAY_DISPOSED" }));
    expect(await engine.generate([good], 1)).toHaveLength(1);
    await engine.dispose();
  });

  it("throws for malformed requests and keeps working", async () => {
    const model = await addon.loadModel({ path: modelPath, device: "CPU" });
    const engine = await model.createEngine({ sequences: 2, contextSize: 256, threads: 1, exact: false });
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /requests: expected an array/],
      [[null], /requests\[0\]: expected a request object/],
      [[{ ...good, promptTokens: [1, 2] }], /requests\[0\]\.promptTokens: expected an Int32Array/],
      [[{ ...good, promptTokens: new Int32Array(0) }], /at least one token/],
      [[{ ...good, promptTokens: Int32Array.of(1, -1) }], /token ids in \[0, 259\), got -1/],
      [[{ ...good, promptTokens: new Int32Array(256) }], /fewer tokens than the context of 256/],
      [[{ ...good, temperature: Number.NaN }], /temperature/],
      [[{ ...good, topK: -1 }], /topK/],
      [[{ ...good, topP: 0 }], /topP: expected a number in \(0, 1\]/],
      [[{ ...good, minP: 2 }], /minP/],
      [[{ ...good, seed: 2 ** 32 }], /seed/],
      [[{ ...good, maxTokens: 1.5 }], /maxTokens: expected an integer/],
      [[{ ...good, logitBiasTokens: Int32Array.of(1) }], /logitBiasValues: expected a Float64Array/],
      [[{ ...good, logitBiasTokens: Int32Array.of(1, 2), logitBiasValues: Float64Array.of(1) }], /one value per token/],
      [[{ ...good, logitBiasTokens: Int32Array.of(300), logitBiasValues: Float64Array.of(1) }], /logitBiasTokens/],
      [[{ ...good, logitBiasTokens: Int32Array.of(1), logitBiasValues: Float64Array.of(Infinity) }], /finite/],
      [[{ ...good, stopSequences: [""] }], /stopSequences/],
      [[{ ...good, grammar: 5 }], /grammar: expected a string/],
      [[{ ...good, grammar: "" }], /grammar/],
    ];
    for (const [requests, message] of cases) {
      expect(() => engine.generate(requests as never, 1)).toThrowError(message);
    }
    expect(() => engine.generate([good], -1)).toThrowError(/callId/);
    expect(() => engine.generate([{ ...good, grammar: "root ::= (" }], 1)).toThrowError(expect.objectContaining({ code: "SELFPLAY_INVALID_GRAMMAR" }));
    const first = engine.generate([good], 7);
    expect(() => engine.generate([good], 7)).toThrowError(/already in flight/);
    engine.abort(12345);
    expect(await first).toHaveLength(1);
    expect(await engine.generate([], 8)).toEqual([]);
    await engine.dispose();
    await engine.dispose();
    expect(() => engine.generate([good], 9)).toThrowError(expect.objectContaining({ code: "SELFPLAY_DISPOSED" }));
    await model.dispose();
  });
});
