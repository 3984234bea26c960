import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { loadLlama } from "../../../src/inference/llama/load-llama.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { StructuredEpisode } from "../../helpers/structured-episode.js";
import { logSumExp, referenceDistribution } from "../../helpers/reference-distribution.js";

const CritiqueSchema = z.object({
  approved: z.boolean(),
  score: z.number().min(0).max(1),
  feedback: z.string().max(200),
  issues: z.array(z.string().max(80)).max(4),
  suggestions: z.array(z.string().max(80)).max(4),
});

describe("constrained generation on the real engine", () => {
  let modelPath: string;
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-constrained-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 3 })).path;
    client = await LlamaInferenceClient.create({ modelPath, sequences: 4, contextSize: 1024 });
  });

  afterAll(async () => {
    await client.dispose();
  });

  it("samples only what a grammar allows and records logprobs under the masked distribution", async () => {
    const temperature = 0.8;
    const request: GenerationRequest = {
      messages: [{ role: "user", content: "letters" }],
      sampler: { ...DEFAULT_SAMPLER, temperature, maxTokens: 16, seed: 11 },
      constraint: { kind: "grammar", gbnf: 'root ::= [ab]{1,5} "."' },
    };
    const [output] = await client.generate([request]);
    expect(output!.text).toMatch(/^[ab]{1,5}\.$/);
    expect(output!.constrained).toBe(true);
    expect(output!.finishReason).toBe("stop");

    // Independent check: the unmasked temperature-1 distribution from a fresh context, masked and rescaled by hand.
    const model = await (await loadLlama("cpu")).loadModel({ modelPath });
    const context = await model.createContext({ contextSize: 256, threads: 1, flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" });
    try {
      const sequence = context.getSequence();
      const prefix = Array.from(output!.promptTokenIds);
      const byteToken = (character: string) => character.charCodeAt(0) + 3;
      let maxDifference = 0;
      for (const [index, token] of Array.from(output!.completionTokenIds).entries()) {
        const written = output!.text.slice(0, index);
        const allowed = written.endsWith(".") ? [] : written.length === 0 ? ["a", "b"] : written.length < 5 ? ["a", "b", "."] : ["."];
        if (allowed.length === 0) {
          // Only the end of generation is allowed after the grammar completes: probability 1.
          expect(model.isEogToken(token as never)).toBe(true);
          expect(output!.completionLogprobs[index]).toBeCloseTo(0, 6);
          continue;
        }
        const probabilities = await referenceDistribution(sequence, prefix);
        const scaled = (id: number) => Math.log(probabilities.get(id) as number) / temperature;
        const expected = scaled(token) - logSumExp(allowed.map((character) => scaled(byteToken(character))));
        maxDifference = Math.max(maxDifference, Math.abs(expected - (output!.completionLogprobs[index] as number)));
        prefix.push(token);
      }
      expect(maxDifference).toBeLessThan(1e-5);
    } finally {
      await context.dispose();
      await model.dispose();
    }
  });

  it("refuses a logit bias key that is not one token", async () => {
    await expect(
      client.generate([
        {
          messages: [{ role: "user", content: "x" }],
          sampler: { ...DEFAULT_SAMPLER, maxTokens: 4, seed: 1 },
          constraint: { kind: "grammar", gbnf: 'root ::= "a"', logitBias: { ab: 2 } },
        },
      ]),
    ).rejects.toThrowError(/constraint\.logitBias\["ab"\].*exactly one token/);
  });

  it("gives 100 dialectic critiques that all validate, counting first-try validity and resamples", async () => {
    const arena = new Arena({ client, seed: 5, samplerDefaults: { maxTokens: 400 } });
    // A random model rarely closes a string on its own; a bias toward the closing quote keeps outputs short.
    arena.register(new StructuredEpisode({ schema: CritiqueSchema, calls: 4, maxAttempts: 6, logitBias: { '"': 4 } }));
    const results = await arena.generateRollouts(
      Array.from({ length: 25 }, (_, index) => ({ episodeType: "structured", artifact: { topic: `draft ${index}` } })),
    );
    const values = results.flatMap((result) => result.rollout.artifacts.values as unknown[]);
    expect(values).toHaveLength(100);
    for (const value of values) expect(CritiqueSchema.safeParse(value).success).toBe(true);
    const stats = results.reduce(
      (sum, result) => ({ calls: sum.calls + result.structuredOutputs.role.calls, firstTry: sum.firstTry + result.structuredOutputs.role.firstTryValid, resamples: sum.resamples + result.structuredOutputs.role.resamples }),
      { calls: 0, firstTry: 0, resamples: 0 },
    );
    expect(stats.calls).toBe(100);
    const steps = results.flatMap((result) => result.rollout.steps);
    expect(steps).toHaveLength(100 + stats.resamples);
    for (const step of steps) {
      expect(step.constrained).toBe(true);
      expect(step.constraint?.kind).toBe("json-schema");
      expect(step.structured).toBeDefined();
    }
    console.log(`critique schema: ${stats.firstTry}/100 valid on the first try, ${stats.resamples} resamples`);
  });
});
