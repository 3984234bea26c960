import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createRandomLoraAdapter } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { OpenAICompatibleClient } from "../../../src/inference/server/openai-compatible-client.js";
import { AdapterMismatchError, EndpointUnavailableError, PolicyVersionMismatchError, ServerCapabilityError } from "../../../src/inference/errors/index.js";
import { startRecordedHttpServer, type ReceivedRequest, type RecordedHttpServer } from "../../helpers/recorded-http-server.js";

/**
 * vLLM cannot run here (no GPU, no Python packages): these answers are written
 * in the shape vLLM's OpenAI server documents for `/v1/completions` with
 * `logprobs` and `return_tokens_as_token_ids` (`CompletionLogProbs`), its
 * `/v1/models`, `/health` (an empty 200) and `/v1/load_lora_adapter` (a line of
 * text). They are recordings of that shape, not captures of a live server:
 * the README says vLLM is untested live. Token ids are the project-made
 * arithmetic model's (its bytes), which the client tokenises with.
 */
const SERVED = "Qwen/Qwen2.5-0.5B-Instruct";
const modelPath = bundledArithmeticBase();

/** What the recorded vLLM answers: "19" and an end of generation, with logprobs per token; raw logprobs ignore the temperature. */
function vllm(options: { logprobsMode: "raw_logprobs" | "processed_logprobs"; answerModel?: (requested: string) => string; slowTokens?: number }) {
  return (request: ReceivedRequest) => {
    if (request.path === "/health") return { body: "" };
    if (request.path === "/v1/models") return { body: { object: "list", data: [{ id: SERVED, object: "model", owned_by: "vllm", max_model_len: 256 }] } };
    if (request.path === "/v1/load_lora_adapter") return { body: `Success: LoRA adapter '${(request.body as { lora_name: string }).lora_name}' added successfully.` };
    if (request.path === "/v1/unload_lora_adapter") return { body: "Success: LoRA adapter unloaded." };
    if (request.path !== "/v1/completions") return undefined;
    const body = request.body as { model: string; max_tokens: number; temperature: number };
    const scale = options.logprobsMode === "raw_logprobs" || body.temperature === 0 ? 1 : 1 / body.temperature;
    const tokens = [52, 60, 2].slice(0, body.max_tokens);
    const logprobs = [-0.5, -0.25, -0.01].slice(0, tokens.length).map((logprob) => logprob * scale);
    return {
      ...(options.slowTokens !== undefined && body.max_tokens >= options.slowTokens && { delayMilliseconds: 5000 }),
      body: {
        id: "cmpl-recorded",
        object: "text_completion",
        created: 1795800000,
        model: options.answerModel?.(body.model) ?? body.model,
        choices: [
          {
            index: 0,
            text: "19".slice(0, tokens.length),
            logprobs: {
              text_offset: tokens.map((_, index) => index),
              token_logprobs: logprobs,
              tokens: tokens.map((id) => `token_id:${id}`),
              top_logprobs: tokens.map((id, index) => ({ [`token_id:${id}`]: logprobs[index] as number })),
            },
            finish_reason: tokens.length === 3 ? "stop" : "length",
            stop_reason: null,
          },
        ],
        usage: { prompt_tokens: 10, total_tokens: 10 + tokens.length, completion_tokens: tokens.length },
      },
    };
  };
}

const request = { messages: [{ role: "user" as const, content: "12+7=" }], sampler: { temperature: 0.7, topK: 0, topP: 1, minP: 0, seed: 3, maxTokens: 8, stop: [] }, constraint: null };

let server: RecordedHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAICompatibleClient against vLLM's recorded answers", () => {
  it("sends token ids and the sampler chain, and reads token ids and logprobs back", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs" }));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath, apiKey: "secret" });
    try {
      expect(client.trainingRefusal).toBeUndefined();
      const [output] = await client.generate([request]);
      expect(output).toMatchObject({ text: "19", finishReason: "stop", policyVersion: 0, endpoint: server.url });
      expect(Array.from(output?.completionTokenIds ?? [])).toEqual([52, 60, 2]);
      expect(Array.from(output?.completionLogprobs ?? [])).toEqual([-0.5 / 0.7, -0.25 / 0.7, -0.01 / 0.7]);
      const sent = server.received.filter((received) => received.path === "/v1/completions").at(-1);
      expect(sent?.headers.authorization).toBe("Bearer secret");
      expect(sent?.body).toMatchObject({
        model: SERVED,
        temperature: 0.7,
        top_k: -1,
        top_p: 1,
        min_p: 0,
        seed: 3,
        max_tokens: 8,
        logprobs: 1,
        return_tokens_as_token_ids: true,
        repetition_penalty: 1,
      });
      expect((sent?.body as { prompt: unknown }).prompt).toEqual(Array.from(output?.promptTokenIds ?? []));
    } finally {
      await client.dispose();
    }
  });

  it("refuses raw logprobs for training, saying how to start vLLM", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "raw_logprobs" }));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath });
    try {
      expect(client.capabilities.sampledLogprobs).toBe(false);
      expect(client.trainingRefusal).toMatch(/do not change with the temperature .*--logprobs-mode processed_logprobs/);
    } finally {
      await client.dispose();
    }
  });

  it("loads each policy version as a runtime LoRA and names it in every request", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs" }));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath });
    try {
      await client.swapWeights({ policyVersion: 1, loraPath: "/runs/x/policies/policy-v1" });
      const [output] = await client.generate([request]);
      expect(output?.policyVersion).toBe(1);
      const load = server.received.find((received) => received.path === "/v1/load_lora_adapter");
      expect(load?.body).toEqual({ lora_name: `${SERVED}-selfplay-v1`, lora_path: "/runs/x/policies/policy-v1" });
      expect((server.received.at(-1)?.body as { model: string }).model).toBe(`${SERVED}-selfplay-v1`);
      await client.swapWeights({ policyVersion: 2, loraPath: "/runs/x/policies/policy-v2" });
      // Version 1 had no call in flight: it is unloaded once version 2 serves.
      expect(server.received.filter((received) => received.path === "/v1/unload_lora_adapter").map((received) => received.body)).toEqual([{ lora_name: `${SERVED}-selfplay-v1` }]);
      await expect(client.swapWeights({ policyVersion: 3, modelPath: "/runs/x/policies/policy-v3.gguf" })).rejects.toThrow(ServerCapabilityError);
    } finally {
      await client.dispose();
    }
  });

  it("ends a call aborted while the server generates as the engine does, with an abort output", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs", slowTokens: 8 }));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath });
    try {
      const started = performance.now();
      const [output] = await client.generate([request], { signal: AbortSignal.timeout(100) });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(output).toMatchObject({ text: "", finishReason: "abort", policyVersion: 0 });
      expect(output?.completionTokenIds).toHaveLength(0);
      // The endpoint is not marked down for an abort: the next call goes there.
      expect(client.endpoints()[0]?.up).toBe(true);
    } finally {
      await client.dispose();
    }
  });

  it("writes a GGUF adapter as a PEFT folder beside it and sends that folder's absolute path", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs" }));
    const policies = await mkdtemp(join(tmpdir(), "selfplay-vllm-policies-"));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath });
    try {
      const loraPath = join(policies, "policy-v1.lora.gguf");
      await createRandomLoraAdapter({ baseModelPath: modelPath, path: loraPath, rank: 2, seed: 1, targets: ["attn_q", "ffn_up"] });
      await client.swapWeights({ policyVersion: 1, loraPath });
      const load = server.received.find((received) => received.path === "/v1/load_lora_adapter");
      expect(load?.body).toEqual({ lora_name: `${SERVED}-selfplay-v1`, lora_path: join(policies, "policy-v1.peft") });
      expect((await readdir(policies)).sort()).toEqual(["policy-v1.lora.gguf", "policy-v1.peft"]);
      expect((await readdir(join(policies, "policy-v1.peft"))).sort()).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
      // The served model's name is the base the PEFT form names.
      expect(JSON.parse(await readFile(join(policies, "policy-v1.peft", "adapter_config.json"), "utf8"))).toMatchObject({
        peft_type: "LORA",
        base_model_name_or_path: SERVED,
        r: 2,
        lora_alpha: 2,
        target_modules: ["q_proj", "up_proj"],
      });
      const [output] = await client.generate([request]);
      expect(output?.policyVersion).toBe(1);
    } finally {
      await client.dispose();
      await rm(policies, { recursive: true, force: true });
    }
  });

  it("refuses a GGUF adapter made for another base before any endpoint is asked to load it", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs" }));
    const policies = await mkdtemp(join(tmpdir(), "selfplay-vllm-policies-"));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath });
    try {
      const otherBase = (await createRandomModel({ path: join(policies, "other.gguf"), preset: "small", architecture: "qwen2", seed: 1 })).path;
      const loraPath = join(policies, "policy-v1.lora.gguf");
      await createRandomLoraAdapter({ baseModelPath: otherBase, path: loraPath, rank: 2, seed: 1, targets: ["attn_q"] });
      await expect(client.swapWeights({ policyVersion: 1, loraPath })).rejects.toThrow(AdapterMismatchError);
      expect(server.received.some((received) => received.path === "/v1/load_lora_adapter")).toBe(false);
      expect(existsSync(join(policies, "policy-v1.peft"))).toBe(false);
      expect(client.policyVersion).toBe(0);
    } finally {
      await client.dispose();
      await rm(policies, { recursive: true, force: true });
    }
  });

  it("fails a call whose answer names another model than the policy version asked for", async () => {
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs", answerModel: () => SERVED }));
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath });
    try {
      await client.swapWeights({ policyVersion: 1, loraPath: "/runs/x/policies/policy-v1" });
      await expect(client.generate([request])).rejects.toThrow(PolicyVersionMismatchError);
      await expect(client.generate([request])).rejects.toThrow(/answered with model "Qwen\/Qwen2\.5-0\.5B-Instruct" where the request named "Qwen\/Qwen2\.5-0\.5B-Instruct-selfplay-v1" \(policy version 1\)/);
    } finally {
      await client.dispose();
    }
  });
});

describe("OpenAICompatibleClient over https", () => {
  it("trusts a server whose certificate --ca-file vouches for, and refuses it otherwise", async () => {
    // A self-signed certificate for 127.0.0.1, made by the openssl command line.
    const folder = await mkdtemp(join(tmpdir(), "selfplay-tls-"));
    const [key, cert] = [join(folder, "key.pem"), join(folder, "cert.pem")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
    server = await startRecordedHttpServer(vllm({ logprobsMode: "processed_logprobs" }), { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") });
    expect(server.url).toMatch(/^https:/);
    await expect(OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath })).rejects.toThrow(EndpointUnavailableError);
    await expect(OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath })).rejects.toThrow(/\/health failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/);
    const client = await OpenAICompatibleClient.create({ endpoints: [server.url], serverKind: "vllm", modelPath, tls: { caFile: cert } });
    try {
      const [output] = await client.generate([request]);
      expect(output?.text).toBe("19");
    } finally {
      await client.dispose();
    }
  });
});
