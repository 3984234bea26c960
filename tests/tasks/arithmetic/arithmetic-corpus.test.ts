import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { proposerMessages, solverMessages } from "../../../src/tasks/arithmetic/arithmetic-prompts.js";
import { ARITHMETIC_HELD_OUT } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { isHeldOut } from "../../../src/core/held-out/held-out-rule.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { arithmeticExample, completionTokens, plainPromptTokens } from "../../../src/tasks/arithmetic/arithmetic-corpus.js";
import { learningRateAt, PretrainConfigurationSchema } from "../../../src/training/tfjs/pretrain/pretrain-configuration.js";

const text = (tokens: ArrayLike<number>) => Buffer.from(Array.from(tokens, (token) => token - 3)).toString("utf8");

describe("the arithmetic pretraining corpus", () => {
  it("writes prompts exactly as the inference client tokenises them for a project-made model", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-corpus-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    const client = await LlamaInferenceClient.create({ modelPath, sequences: 2 });
    try {
      for (const messages of [solverMessages("23+45"), proposerMessages("add-2x2-carry")]) {
        const [output] = await client.generate([{ messages, sampler: { ...DEFAULT_SAMPLER, maxTokens: 1, seed: 1 }, constraint: null }]);
        expect(Array.from(plainPromptTokens(messages))).toEqual(Array.from(output!.promptTokenIds));
      }
    } finally {
      await client.dispose();
    }
  });

  it("ends every completion with the end-of-sequence token and never uses a held-out problem", () => {
    expect(Array.from(completionTokens("68"))).toEqual([57, 59, 2]);
    const random = new RandomStream("corpus");
    let solver = 0;
    for (let index = 0; index < 400; index++) {
      const example = arithmeticExample(random);
      const prompt = text(example.promptTokenIds);
      const completion = text(Array.from(example.completionTokenIds).slice(0, -1));
      expect(example.completionTokenIds[example.completionTokenIds.length - 1]).toBe(2);
      const solverMatch = /^user: (\d+[+-]\d+)=\nassistant:$/.exec(prompt);
      if (solverMatch) {
        solver++;
        expect(isHeldOut(solverMatch[1]!, ARITHMETIC_HELD_OUT)).toBe(false);
        const [, left, operator, right] = /^(\d+)([+-])(\d+)$/.exec(solverMatch[1]!)!;
        expect(completion).toBe(String(operator === "+" ? Number(left) + Number(right) : Number(left) - Number(right)));
      } else {
        expect(prompt).toMatch(/^user: propose [a-z0-9-]+\nassistant:$/);
        expect(isHeldOut(completion, ARITHMETIC_HELD_OUT)).toBe(false);
      }
    }
    expect(solver / 400).toBeGreaterThan(0.7);
    expect(solver / 400).toBeLessThan(0.9);
  });

  it("warms the learning rate up linearly, then decays it by a cosine to a tenth", () => {
    const configuration = PretrainConfigurationSchema.parse({ steps: 110, warmupSteps: 10, learningRate: 1 });
    expect(learningRateAt(0, configuration)).toBeCloseTo(0.1, 10);
    expect(learningRateAt(9, configuration)).toBeCloseTo(1, 10);
    expect(learningRateAt(60, configuration)).toBeCloseTo(0.55, 10);
    expect(learningRateAt(110, configuration)).toBeCloseTo(0.1, 10);
  });
});
