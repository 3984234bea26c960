import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

const request = (temperature: number, prefixTokenIds?: number[], maxTokens = 12): GenerationRequest => ({
  messages: [{ role: "user", content: "23+45=" }],
  sampler: { ...DEFAULT_SAMPLER, temperature, maxTokens, seed: 3 },
  constraint: null,
  ...(prefixTokenIds && { prefixTokenIds }),
});

describe("prefixTokenIds: continuing a completion from its first tokens", () => {
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-prefix-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
    client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
  });

  afterAll(async () => {
    await client.dispose();
  });

  it("continues a greedy completion exactly where it was cut (real engine)", async () => {
    expect(client.capabilities.prefixTokens).toBe(true);
    const [whole] = await client.generate([request(0)]);
    const tokens = Array.from(whole!.completionTokenIds);
    expect(tokens.length).toBeGreaterThan(3);
    const cuts = [1, 2, tokens.length - 1];
    const continued = await client.generate(cuts.map((cut) => request(0, tokens.slice(0, cut), 12 - cut)));
    continued.forEach((output, index) => {
      const cut = cuts[index]!;
      expect(Array.from(output.completionTokenIds)).toEqual(tokens.slice(cut));
      expect(Array.from(output.promptTokenIds)).toEqual([...Array.from(whole!.promptTokenIds), ...tokens.slice(0, cut)]);
      expect(client.detokenize([...tokens.slice(0, cut), ...output.completionTokenIds])).toBe(whole!.text);
    });
  });

  it("samples a continuation at temperature 1 within the remaining budget", async () => {
    const [whole] = await client.generate([request(1)]);
    const [continued] = await client.generate([request(1, Array.from(whole!.completionTokenIds.slice(0, 2)), 3)]);
    expect(continued!.completionTokenIds.length).toBeLessThanOrEqual(3);
    expect(continued!.completionLogprobs).toHaveLength(continued!.completionTokenIds.length);
  });

  it("detokenizes a sequence without its special tokens (the byte model's end of sequence is id 2)", () => {
    expect(client.detokenize([...Buffer.from("68")].map((byte) => byte + 3).concat([2]))).toBe("68");
  });

  it("joins the prefix to the prompt's token ids in ScriptedInferenceClient too", async () => {
    const scripted = new ScriptedInferenceClient({ rules: [{ when: /23\+45=/, reply: "8" }] });
    const [output] = await scripted.generate([request(0, [57])]);
    expect(output!.text).toBe("8");
    expect(Array.from(output!.promptTokenIds).at(-1)).toBe(57);
  });
});
