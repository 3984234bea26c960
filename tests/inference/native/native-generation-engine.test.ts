import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { NativeEngineDisposedError } from "../../../src/inference/errors/index.js";
import { loadLlama } from "../../../src/inference/llama/load-llama.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { nativeAddon, skipNote } from "./native-addon-for-tests.js";
import { NativeGenerationEngine } from "../../../src/inference/native/native-generation-engine.js";
import type { NativeGenerationRequest } from "../../../src/inference/native/native-generation-request.js";
import { logSumExp, referenceDistribution } from "../../helpers/reference-distribution.js";

const { binding } = nativeAddon;
const END_OF_SEQUENCE = 2;
const bytes = (text: string) => [...Buffer.from(text)].map((byte) => byte + 3);

const request = (prompt: string, seed: number, overrides: Partial<NativeGenerationRequest> = {}): NativeGenerationRequest => ({
  promptTokenIds: [1, ...bytes(prompt)],
  maxTokens: 24,
  sampler: { temperature: 1, topK: 0, topP: 1, minP: 0, seed },
  ...overrides,
});

describe.skipIf(binding === undefined)(`native generation loop${skipNote}`, () => {
  let modelPath: string;
  let engine: NativeGenerationEngine;
  /** node-llama-cpp's own path over the same model, exact mode, one sequence. */
  let reference: { model: LlamaModel; context: LlamaContext; sequence: LlamaContextSequence };

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-native-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    engine = await NativeGenerationEngine.create({ modelPath, sequences: 4, contextSize: 256, threads: 1, mode: "exact" });
    const model = await (await loadLlama("cpu")).loadModel({ modelPath });
    const context = await model.createContext({
      contextSize: 256, threads: 1, flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
    });
    reference = { model, context, sequence: context.getSequence() };
  });

  afterAll(async () => {
    await engine.dispose();
    await reference.context.dispose();
    await reference.model.dispose();
  });

  it("decodes greedily to the same tokens as node-llama-cpp's own path, alone and in a batch", async () => {
    const prompts = ["2+3=", "hello", "abc", "the quick brown fox"];
    const expected: number[][] = [];
    for (const prompt of prompts) {
      await reference.sequence.clearHistory();
      const tokens: number[] = [];
      for await (const { token } of reference.sequence.evaluateWithMetadata([1, ...bytes(prompt)] as Token[], {}, { temperature: 0, yieldEogToken: true })) {
        tokens.push(token);
        if (tokens.length === 30 || token === END_OF_SEQUENCE) break;
      }
      expected.push(tokens);
    }
    const greedy = (prompt: string) => request(prompt, 0, { maxTokens: 30, sampler: { temperature: 0, topK: 0, topP: 1, minP: 0, seed: 0 } });
    const alone = await engine.generate([greedy(prompts[0]!)]);
    expect(Array.from(alone[0]!.completionTokenIds)).toEqual(expected[0]);
    const batched = await engine.generate(prompts.map(greedy));
    batched.forEach((output, index) => expect(Array.from(output.completionTokenIds)).toEqual(expected[index]));
    // Greedy decoding draws with certainty.
    for (const output of batched) expect(Array.from(output.completionLogprobs).every((logprob) => logprob === 0)).toBe(true);
    // A temperature so small that the logits overflow is greedy decoding too.
    const [tiny] = await engine.generate([{ ...greedy(prompts[0]!), sampler: { temperature: 1e-40, topK: 0, topP: 1, minP: 0, seed: 3 } }]);
    expect(Array.from(tiny!.completionTokenIds)).toEqual(expected[0]);
  });

  it("records each sampled token's log-probability under the temperature-scaled distribution, to 1e-5", async () => {
    const temperature = 0.7;
    const [output] = await engine.generate([request("abc", 5, { maxTokens: 12, sampler: { temperature, topK: 0, topP: 1, minP: 0, seed: 5 } })]);
    const prefix = [1, ...bytes("abc")];
    let maxDifference = 0;
    for (const [index, token] of Array.from(output!.completionTokenIds).entries()) {
      const probabilities = await referenceDistribution(reference.sequence, prefix);
      // log p_T(x) = log p_1(x)/T − logsumexp(log p_1/T)
      const scaled = [...probabilities.values()].map((probability) => Math.log(probability) / temperature);
      const expected = Math.log(probabilities.get(token)!) / temperature - logSumExp(scaled);
      maxDifference = Math.max(maxDifference, Math.abs(expected - output!.completionLogprobs[index]!));
      prefix.push(token);
    }
    expect(output!.completionTokenIds.length).toBeGreaterThan(0);
    expect(maxDifference).toBeLessThan(1e-5);
  });

  it("records logprobs under the truncated distribution when topK keeps a few tokens", async () => {
    const [output] = await engine.generate([request("xyz", 9, { maxTokens: 6, sampler: { temperature: 1.3, topK: 5, topP: 1, minP: 0, seed: 9 } })]);
    const prefix = [1, ...bytes("xyz")];
    for (const [index, token] of Array.from(output!.completionTokenIds).entries()) {
      const probabilities = await referenceDistribution(reference.sequence, prefix);
      const topFive = [...probabilities.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
      expect(topFive.map(([id]) => id)).toContain(token);
      const scaled = topFive.map(([, probability]) => Math.log(probability) / 1.3);
      expect(output!.completionLogprobs[index]).toBeCloseTo(Math.log(probabilities.get(token)!) / 1.3 - logSumExp(scaled), 5);
      prefix.push(token);
    }
  });

  it("gives the same tokens and logprobs for a seed alone, batched, in any slot, and queued behind more requests than sequences", async () => {
    const alone = await engine.generate([request("hello", 42)]);
    // Ten requests over four sequences: later ones take the slots of finished ones (continuous batching).
    const requests = Array.from({ length: 10 }, (_, index) => request(index % 3 === 0 ? "hello" : `other ${index}`, index % 3 === 0 ? 42 : index));
    const batched = await engine.generate(requests);
    expect(batched).toHaveLength(10);
    for (const index of [0, 3, 6, 9]) {
      expect(Array.from(batched[index]!.completionTokenIds)).toEqual(Array.from(alone[0]!.completionTokenIds));
      batched[index]!.completionLogprobs.forEach((logprob, position) =>
        expect(Math.abs(logprob - alone[0]!.completionLogprobs[position]!)).toBeLessThan(1e-5),
      );
    }
    expect(Array.from(batched[1]!.completionTokenIds)).not.toEqual(Array.from(batched[0]!.completionTokenIds));
    for (const output of batched) expect(["stop", "length"]).toContain(output.finishReason);
  });

  it("shares the sequences between concurrent calls", async () => {
    const calls = await Promise.all([0, 1, 2].map((call) => engine.generate([request("a", call), request("b", call + 10), request("c", call + 20)])));
    const again = await engine.generate([request("b", 11)]);
    expect(Array.from(calls[1]![1]!.completionTokenIds)).toEqual(Array.from(again[0]!.completionTokenIds));
  });

  it("samples only what a grammar allows and records logprobs under the masked, biased distribution", async () => {
    const temperature = 0.8;
    const bias = 1.5;
    const [output] = await engine.generate([
      request("letters", 11, {
        maxTokens: 16,
        sampler: { temperature, topK: 0, topP: 1, minP: 0, seed: 11 },
        grammar: { gbnf: 'root ::= [ab]{1,5} "."' },
        logitBias: new Map([[bytes("b")[0]!, bias]]),
      }),
    ]);
    const tokens = Array.from(output!.completionTokenIds);
    expect(tokens.at(-1)).toBe(END_OF_SEQUENCE);
    const text = String.fromCharCode(...tokens.slice(0, -1).map((token) => token - 3));
    expect(text).toMatch(/^[ab]{1,5}\.$/);
    expect(output!.finishReason).toBe("stop");
    const prefix = [1, ...bytes("letters")];
    let maxDifference = 0;
    for (const [index, token] of tokens.entries()) {
      const written = text.slice(0, index);
      if (written.endsWith(".")) {
        // After the grammar completes only the end of generation is allowed: probability 1.
        expect(output!.completionLogprobs[index]).toBe(0);
        continue;
      }
      const allowed = written.length === 0 ? ["a", "b"] : written.length < 5 ? ["a", "b", "."] : ["."];
      const probabilities = await referenceDistribution(reference.sequence, prefix);
      const logit = (id: number) => (Math.log(probabilities.get(id)!) + (id === bytes("b")[0] ? bias : 0)) / temperature;
      const expected = logit(token) - logSumExp(allowed.map((character) => logit(bytes(character)[0]!)));
      maxDifference = Math.max(maxDifference, Math.abs(expected - output!.completionLogprobs[index]!));
      prefix.push(token);
    }
    expect(maxDifference).toBeLessThan(1e-5);
  });

  it("ends a request at the token that completes a stop string, and at the context's room", async () => {
    const noEnd = new Map([[END_OF_SEQUENCE, -1000]]);
    const [free] = await engine.generate([request("count", 4, { maxTokens: 40, logitBias: noEnd })]);
    const text = String.fromCharCode(...Array.from(free!.completionTokenIds, (token) => token - 3));
    // A two-token stop string of printable ASCII, first seen from the third token on.
    const at = [...text].findIndex((_, index) => index >= 2 && /^[ -~]{2}$/.test(text.slice(index, index + 2)) && text.indexOf(text.slice(index, index + 2)) === index);
    expect(at).toBeGreaterThanOrEqual(2);
    const [stopped] = await engine.generate([request("count", 4, { maxTokens: 40, logitBias: noEnd, stop: [text.slice(at, at + 2)] })]);
    expect(stopped!.finishReason).toBe("stop");
    expect(Array.from(stopped!.completionTokenIds)).toEqual(Array.from(free!.completionTokenIds).slice(0, at + 2));
    const longPrompt = { ...request("", 1), promptTokenIds: Array.from({ length: 250 }, () => bytes("x")[0]!), maxTokens: 100, logitBias: noEnd };
    const [cut] = await engine.generate([longPrompt]);
    expect(cut!.completionTokenIds).toHaveLength(engine.contextSize - 250);
    expect(cut!.finishReason).toBe("length");
  });

  it("aborts a call mid-generation: running requests keep their tokens, queued ones end empty", async () => {
    const long = await NativeGenerationEngine.create({ modelPath, sequences: 4, contextSize: 8192, threads: 1, mode: "exact" });
    try {
      // The end-of-sequence token is biased away, so only maxTokens or the abort ends these.
      const endless = (seed: number, maxTokens = 8000) => request("go", seed, { maxTokens, logitBias: new Map([[END_OF_SEQUENCE, -1000]]) });
      const controller = new AbortController();
      // Three long requests take slots first; the short call gets the last slot, so it cannot start before them.
      // Two more long requests wait in the queue: one gets the short call's slot when it ends, the other never starts.
      const running = long.generate([endless(0), endless(1), endless(2)], { signal: controller.signal });
      const short = long.generate([endless(100, 4)]);
      const queued = long.generate([endless(3), endless(4)], { signal: controller.signal });
      const [first] = await short;
      controller.abort();
      const outputs = [...(await running), ...(await queued)];
      expect(first!.completionTokenIds).toHaveLength(4);
      expect(outputs.map((output) => output.finishReason)).toEqual(Array(5).fill("abort"));
      for (const output of outputs.slice(0, 3)) {
        expect(output.completionTokenIds.length).toBeGreaterThanOrEqual(4);
        expect(output.completionTokenIds.length).toBeLessThan(8000);
        expect(output.completionLogprobs).toHaveLength(output.completionTokenIds.length);
      }
      expect(outputs[4]!.completionTokenIds).toHaveLength(0);
      const [already] = await long.generate([endless(1)], { signal: AbortSignal.abort() });
      expect(already).toMatchObject({ finishReason: "abort", completionTokenIds: new Int32Array(0) });
    } finally {
      await long.dispose();
    }
  });

  it("refuses bad requests with named errors before they reach llama.cpp", async () => {
    await expect(engine.generate([{ ...request("x", 1), promptTokenIds: [1, 9999] }])).rejects.toThrowError(
      /requests\[0\]\.promptTokenIds: got 9999; expected token ids in \[0, 259\)/,
    );
    await expect(engine.generate([{ ...request("x", 1), promptTokenIds: Array(300).fill(60) }])).rejects.toThrowError(/fewer tokens than the context of 256/);
    await expect(engine.generate([{ ...request("x", 1), promptTokenIds: [] }])).rejects.toThrowError(InvalidInputError);
    await expect(engine.generate([request("x", 1, { maxTokens: 0 })])).rejects.toThrowError(/requests\[0\]\.maxTokens/);
    await expect(engine.generate([request("x", 1, { sampler: { temperature: -1, topK: 0, topP: 1, minP: 0, seed: 1 } })])).rejects.toThrowError(
      /requests\[0\]\.sampler\.temperature/,
    );
    await expect(engine.generate([request("x", 1, { logitBias: new Map([[400, 1]]) })])).rejects.toThrowError(/logitBias/);
    await expect(engine.generate([request("x", 1, { grammar: { gbnf: "root ::= undefined-rule" } })])).rejects.toThrowError(
      /requests\[0\]\.grammar: expected a GBNF grammar llama.cpp can parse/,
    );
    await expect(engine.generate([request("x", 1, { grammar: { gbnf: 'start ::= "a"' } })])).rejects.toThrowError(InvalidInputError);
    // The engine still works after refusing them.
    expect((await engine.generate([request("x", 1, { maxTokens: 2 })]))[0]!.completionTokenIds).toHaveLength(2);
  });

  it("refuses work after dispose, and fails calls still running when disposed", async () => {
    const short = await NativeGenerationEngine.create({ modelPath, sequences: 2, contextSize: 2048, threads: 1, mode: "fast" });
    const running = expect(short.generate([request("go", 1, { maxTokens: 2000, logitBias: new Map([[END_OF_SEQUENCE, -1000]]) })])).rejects.toThrowError(
      NativeEngineDisposedError,
    );
    await short.dispose();
    await running;
    await expect(short.generate([request("go", 1)])).rejects.toThrowError(NativeEngineDisposedError);
    await short.dispose();
  });
});
