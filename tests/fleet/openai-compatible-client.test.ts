import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationOutput, GenerationRequest } from "../../src/core/inference-client.js";
import type { LaunchedLlamaServer } from "../../src/benchmarks/llama-cpp/launch-llama-server.js";
import { LlamaInferenceClient } from "../../src/inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../src/inference/model-files/bundled-models.js";
import { createRandomLoraAdapter } from "../../src/inference/model-files/create-random-lora-adapter.js";
import { OpenAICompatibleClient } from "../../src/inference/server/openai-compatible-client.js";
import { matchedTokenAgreement } from "../../src/training/logprobs/matched-token-agreement.js";
import { EndpointUnavailableError, ServerCapabilityError } from "../../src/inference/errors/index.js";
import { FLEET_CONTEXT, launchFleet, writeBasePreset } from "../helpers/llama-server-fleet.js";

const modelPath = bundledArithmeticBase();
let folder: string;
let servers: LaunchedLlamaServer[];
let engine: LlamaInferenceClient;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-fleet-"));
  servers = await launchFleet(2, { modelPath }, folder);
  engine = await LlamaInferenceClient.create({ modelPath, mode: "exact", sequences: 4, contextSize: FLEET_CONTEXT });
}, 120_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all((servers ?? []).map((server) => server.stop()));
  await rm(folder, { recursive: true, force: true });
});

function requests(temperature: number, count: number): GenerationRequest[] {
  return Array.from({ length: count }, (_, index) => ({
    messages: [{ role: "user" as const, content: `${10 + index * 7}+${3 + index * 5}=` }],
    sampler: { temperature, topK: 0, topP: 1, minP: 0, seed: 1000 + index, maxTokens: 12, stop: [] },
    constraint: null,
  }));
}

describe("OpenAICompatibleClient on two llama-server processes", () => {
  it("draws the in-process engine's greedy tokens, from both servers", async () => {
    const client = await OpenAICompatibleClient.create({ endpoints: servers.map((server) => server.url), modelPath });
    try {
      const batch = requests(0, 8);
      const [remote, local] = [await client.generate(batch), await engine.generate(batch)];
      for (const [index, output] of remote.entries()) {
        expect(Array.from(output.promptTokenIds)).toEqual(Array.from(local[index]?.promptTokenIds ?? []));
        expect(Array.from(output.completionTokenIds)).toEqual(Array.from(local[index]?.completionTokenIds ?? []));
        expect(output.text).toBe(local[index]?.text);
      }
      expect(new Set(remote.map((output) => output.endpoint))).toEqual(new Set(servers.map((server) => server.url)));
      expect(client.capabilities).toMatchObject({ tokenIds: true, sampledLogprobs: true, parallelSequences: 8, lora: false });
      expect(client.trainingRefusal).toBeUndefined();
    } finally {
      await client.dispose();
    }
  });

  it("records logprobs within 1e-4 of the engine's at temperature 0.7 (exact mode)", async () => {
    const client = await OpenAICompatibleClient.create({ endpoints: servers.map((server) => server.url), modelPath });
    try {
      const batch = requests(0.7, 16);
      const [remote, local] = [await client.generate(batch), await engine.generate(batch)];
      // Both draw with llama.cpp's dist sampler seeded alike; compared up to where the draws part, as the engine floor does.
      const { tokens: compared, maxAbsDiff: largest } = matchedTokenAgreement(remote, local);
      expect(compared).toBeGreaterThan(40);
      expect(largest).toBeLessThan(1e-4);
    } finally {
      await client.dispose();
    }
  });

  it("asks again for the logprobs llama-server trims after a stop string, and matches the engine", async () => {
    const client = await OpenAICompatibleClient.create({ endpoints: servers.map((server) => server.url), modelPath });
    try {
      const batch = requests(0.7, 16).map((request) => ({ ...request, sampler: { ...request.sampler, stop: ["3", "7"] } }));
      const [remote, local] = [await client.generate(batch), await engine.generate(batch)];
      let stopped = 0;
      let largest = 0;
      for (const [index, output] of remote.entries()) {
        const reference = local[index] as GenerationOutput;
        if (!Array.from(output.completionTokenIds).every((token, position) => token === reference.completionTokenIds[position])) continue;
        expect(output.completionTokenIds.length).toBe(reference.completionTokenIds.length);
        expect(output.text).toBe(reference.text);
        if (/[37]/.test(output.text) === false && output.finishReason === "stop" && output.completionTokenIds.at(-1) !== 2) stopped++;
        for (const [position, logprob] of output.completionLogprobs.entries()) largest = Math.max(largest, Math.abs(logprob - (reference.completionLogprobs[position] as number)));
      }
      expect(stopped).toBeGreaterThan(0);
      expect(largest).toBeLessThan(1e-4);
    } finally {
      await client.dispose();
    }
  });

  it("refuses a dead endpoint at the start, naming it", async () => {
    const dead = "http://127.0.0.1:9";
    const opening = OpenAICompatibleClient.create({ endpoints: [servers[0]?.url as string, dead], modelPath });
    await expect(opening).rejects.toThrow(EndpointUnavailableError);
    await expect(opening).rejects.toThrow(/cannot use 1 of 2 endpoint\(s\) — http:\/\/127\.0\.0\.1:9: \/health failed: ECONNREFUSED/);
  });

  it("refuses new weights on a single-model llama-server, saying to use router mode", async () => {
    const client = await OpenAICompatibleClient.create({ endpoints: [servers[0]?.url as string], modelPath });
    try {
      await expect(client.swapWeights({ policyVersion: 1, loraPath: join(folder, "none.gguf") })).rejects.toThrow(ServerCapabilityError);
      await expect(client.swapWeights({ policyVersion: 1, loraPath: join(folder, "none.gguf") })).rejects.toThrow(/router mode with --models-preset/);
    } finally {
      await client.dispose();
    }
  });
});

describe("OpenAICompatibleClient on two llama-server routers", () => {
  let routers: LaunchedLlamaServer[] = [];
  let presetFile: string;

  beforeAll(async () => {
    presetFile = await writeBasePreset("arithmetic", modelPath);
    routers = await launchFleet(2, { presetFile }, folder);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(routers.map((router) => router.stop()));
  });

  it("serves a new adapter on every router, and the next calls come from it", async () => {
    const client = await OpenAICompatibleClient.create({ endpoints: routers.map((router) => router.url), modelPath, model: "arithmetic", presetFile });
    try {
      const batch = requests(0, 8);
      const before = await client.generate(batch);
      expect(before.every((output) => output.policyVersion === 0)).toBe(true);
      const adapter = join(folder, "policy-v1.lora.gguf");
      await createRandomLoraAdapter({ baseModelPath: modelPath, path: adapter, rank: 4, alpha: 64, seed: 7 });
      await client.swapWeights({ policyVersion: 1, loraPath: adapter });
      expect(client.policyVersion).toBe(1);
      const after = await client.generate(batch);
      expect(after.every((output) => output.policyVersion === 1)).toBe(true);
      expect(new Set(after.map((output) => output.endpoint)).size).toBe(2);
      // The engine with the same adapter draws what the routers draw: the new weights, not the old.
      const adapted = await LlamaInferenceClient.create({ modelPath, loraPath: adapter, mode: "exact", sequences: 4, contextSize: FLEET_CONTEXT });
      try {
        const reference = await adapted.generate(batch);
        expect(after.map((output) => Array.from(output.completionTokenIds))).toEqual(reference.map((output) => Array.from(output.completionTokenIds)));
      } finally {
        await adapted.dispose();
      }
      expect(after.map((output) => output.text)).not.toEqual(before.map((output) => output.text));
      const [timing] = client.weightUpdateTimings();
      expect(timing?.endpoints).toHaveLength(2);
      expect(await readFile(presetFile, "utf8")).toContain(`[arithmetic-selfplay-v1]\nmodel = ${modelPath}\nlora = ${adapter}`);
    } finally {
      await client.dispose();
    }
  });
});
