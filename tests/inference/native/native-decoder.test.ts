import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { nativeAddon, skipNote } from "./native-addon-for-tests.js";

const { binding } = nativeAddon;

const greedy = (content: string, overrides: Partial<GenerationRequest["sampler"]> = {}): GenerationRequest => ({
  messages: [{ role: "user", content }],
  sampler: { ...DEFAULT_SAMPLER, temperature: 0, maxTokens: 20, seed: 1, ...overrides },
  constraint: null,
});

/** LlamaInferenceClient over the native loop, checked against the same client over node-llama-cpp's path. */
describe.skipIf(binding === undefined)(`LlamaInferenceClient's native decoder${skipNote}`, () => {
  let native: LlamaInferenceClient;
  let reference: LlamaInferenceClient;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-native-decoder-"));
    const modelPath = (await createRandomModel({ path: join(folder, "small.gguf"), preset: "small", architecture: "qwen2", seed: 7 })).path;
    native = await LlamaInferenceClient.create({ modelPath, sequences: 3 });
    reference = await LlamaInferenceClient.create({ modelPath, sequences: 3, decoder: "node-llama-cpp" });
  });

  afterAll(async () => {
    await Promise.all([native.dispose(), reference.dispose()]);
  });

  it("is what auto picks when the addon is built", () => {
    expect(native.decoder).toBe("native");
    expect(reference.decoder).toBe("node-llama-cpp");
  });

  it("gives the same greedy outputs as node-llama-cpp's path: tokens, text, stop strings and finish reasons", async () => {
    const requests = ["2+3=", "hello there", "abc", "zz", "the end"].map((content) => greedy(content));
    const expected = await reference.generate(requests);
    const actual = await native.generate(requests);
    actual.forEach((output, index) => {
      const { completionLogprobs: _logprobs, ...rest } = expected[index]!;
      expect(output).toMatchObject(rest);
      expect(Array.from(output.completionLogprobs)).toEqual(Array.from(expected[index]!.completionLogprobs));
    });
    const stop = [...expected[0]!.text].find((character, position) => position > 0 && character.trim() !== "");
    if (stop !== undefined) {
      const [withStop] = await native.generate([greedy("2+3=", { stop: [stop] })]);
      const [referenceWithStop] = await reference.generate([greedy("2+3=", { stop: [stop] })]);
      expect(withStop).toMatchObject({ text: referenceWithStop!.text, finishReason: "stop" });
      expect(Array.from(withStop!.completionTokenIds)).toEqual(Array.from(referenceWithStop!.completionTokenIds));
    }
  });

  it("returns outputs in request order when more requests than sequences share the loop", async () => {
    const requests = Array.from({ length: 8 }, (_, index) => greedy(`prompt ${index}`, { maxTokens: 5 + index }));
    const outputs = await native.generate(requests);
    for (const [index, output] of outputs.entries()) {
      const [alone] = await native.generate([requests[index]!]);
      expect(Array.from(output.completionTokenIds)).toEqual(Array.from(alone!.completionTokenIds));
    }
  });
});
