import { readFile } from "node:fs/promises";
import type { LlamaModel, Token } from "node-llama-cpp";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import type {
  GenerateOptions,
  GenerationOutput,
  GenerationRequest,
  InferenceCapabilities,
  InferenceClient,
  WeightUpdate,
} from "../../core/inference-client.js";
import { WeightUpdateSchema } from "../../core/inference-client.js";
import { parseInput } from "../../core/parse-input.js";
import { EndpointRequestError, EndpointUnavailableError, PolicyVersionMismatchError, ServerCapabilityError } from "../errors/index.js";
import { grammarTextFor } from "../grammar/grammar-text-for.js";
import { completionText } from "../llama/completion-text.js";
import { loadLlama } from "../llama/load-llama.js";
import { promptFormatFor, type PromptFormat } from "../llama/prompt-format.js";
import { validateModelFile } from "../model-files/validate-model-file.js";
import { EndpointFleet, type EndpointStatus } from "./endpoint-fleet.js";
import { requestJson, requestOk, type HttpTransport } from "./http-transport.js";
import { llamaServerProtocol } from "./llama-server-protocol.js";
import { llamaServerRouterServing } from "./llama-server-router-serving.js";
import type { PolicyServing, ServedVersion } from "./policy-serving.js";
import { OpenAICompatibleClientOptionsSchema, type OpenAICompatibleClientOptions, type ParsedOpenAICompatibleClientOptions } from "./server-client-options.js";
import type { ServerCompletion, ServerCompletionRequest, ServerProtocol } from "./server-protocol.js";
import { vllmAdapterServing } from "./vllm-adapter-serving.js";
import { vllmProtocol } from "./vllm-protocol.js";

/** Requests per endpoint when the server does not say how many slots it has. */
const DEFAULT_CAPACITY = 8;
/** Below this difference (nats) between the two temperatures' top logprobs, the connect check cannot tell raw from sampled logprobs. */
const TEMPERATURE_PROBE_TOLERANCE = 1e-3;

const LlamaServerPropsSchema = z.object({
  total_slots: z.number().int().positive(),
  model_alias: z.string().optional(),
  default_generation_settings: z.object({ n_ctx: z.number().int().positive() }),
});
const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string(), max_model_len: z.number().int().positive().optional() })).min(1) });

/** What the client learnt of one endpoint when it connected. */
interface EndpointInfo {
  url: string;
  capacity: number;
  contextSize: number | undefined;
  model: string;
}

/** A policy version being served, and its requests in flight (it is unloaded when a newer one is served and none are left). */
interface VersionInFlight extends ServedVersion {
  inFlight: number;
  retired: boolean;
}

/** The seconds a weight update took on each endpoint. */
export interface WeightUpdateTiming {
  policyVersion: number;
  seconds: number;
  endpoints: Array<{ url: string; seconds: number }>;
}

/**
 * An InferenceClient over servers selfplay does not run: llama.cpp's
 * `llama-server` or vLLM's OpenAI-compatible server, one or many. The client
 * tokenises prompts itself and sends token ids, so a Step's prompt ids are
 * exactly what the server evaluated; every request spells out its sampler
 * chain, and asks for the sampled token's probability under it (llama-server:
 * `post_sampling_probs`; vLLM: `--logprobs-mode processed_logprobs`, checked
 * when it connects). A server's logprobs are behaviour logprobs — computed in
 * its batch and precision — so the trainer recomputes π_old itself and
 * corrects with the truncated importance weight; `mismatchKl` on the step
 * line says how far apart they were.
 */
export class OpenAICompatibleClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  private current: VersionInFlight;
  private swap: Promise<void> | undefined;
  private readonly timings: WeightUpdateTiming[] = [];
  /** The update that made the current version, for endpoints that come back after it. */
  private currentUpdate: WeightUpdate | undefined;

  private constructor(
    private readonly transport: HttpTransport,
    private readonly protocol: ServerProtocol,
    private readonly fleet: EndpointFleet,
    private readonly vocabulary: LlamaModel,
    private readonly format: PromptFormat,
    private readonly contextSize: number | undefined,
    private readonly serving: PolicyServing | undefined,
    baseModel: string,
    /** Why trainable roles must not use this client's logprobs, or undefined when they may. */
    readonly trainingRefusal: string | undefined,
  ) {
    this.current = { version: 0, model: baseModel, inFlight: 0, retired: false };
    this.capabilities = {
      tokenIds: true,
      // float32 probabilities from the server's own batches: close to the engine's, not bit-equal; the trainer treats them as behaviour logprobs.
      exactLogprobs: false,
      sampledLogprobs: trainingRefusal === undefined,
      grammars: true,
      jsonSchema: true,
      lora: serving !== undefined,
      parallelSequences: fleet.status().reduce((sum, endpoint) => sum + endpoint.capacity, 0),
      prefixTokens: true,
    };
  }

  /**
   * Connects to every endpoint (each must answer: a dead one at the start is an
   * error naming it), learns their slots and context, and checks with two
   * one-token requests that logprobs are the sampled distribution's.
   */
  static async create(options: OpenAICompatibleClientOptions): Promise<OpenAICompatibleClient> {
    const parsed = parseInput(OpenAICompatibleClientOptionsSchema, options);
    const transport: HttpTransport = {
      ...(parsed.apiKey !== undefined && { apiKey: parsed.apiKey }),
      ...(parsed.tls.caFile !== undefined && { ca: await readCaFile(parsed.tls.caFile) }),
      rejectUnauthorized: parsed.tls.rejectUnauthorized,
      timeoutMilliseconds: parsed.requestTimeoutSeconds * 1000,
    };
    if (parsed.presetFile !== undefined && parsed.model === undefined) {
      throw new InvalidInputError("model", "the base preset's section name in presetFile (a router routes by model name)");
    }
    if (parsed.presetFile !== undefined && parsed.serverKind !== "llama-server") {
      throw new InvalidInputError("presetFile", "no presetFile for vLLM (it loads adapters through /v1/load_lora_adapter)", parsed.presetFile);
    }
    const protocol = parsed.serverKind === "vllm" ? vllmProtocol : llamaServerProtocol;
    const infos = await connectAll(parsed, transport);
    const model = parsed.model ?? (infos[0] as EndpointInfo).model;
    await validateModelFile(parsed.modelPath);
    const vocabulary = await (await loadLlama("cpu")).loadModel({ modelPath: parsed.modelPath, vocabOnly: true });
    const format = promptFormatFor(vocabulary);
    const contexts = infos.map((info) => info.contextSize).filter((size): size is number => size !== undefined);
    const serving =
      parsed.serverKind === "vllm"
        ? vllmAdapterServing(transport, model, parsed.modelPath)
        : parsed.presetFile === undefined
          ? undefined
          : llamaServerRouterServing(transport, parsed.presetFile, model, parsed.swapTimeoutSeconds * 1000);
    const probe = (url: string) => probeHealth(url, transport);
    let client: OpenAICompatibleClient | undefined;
    const fleet = new EndpointFleet(
      infos.map((info) => ({ url: info.url, capacity: parsed.maxInFlightPerEndpoint ?? info.capacity })),
      {
        attempts: parsed.attempts,
        retryDelayMilliseconds: parsed.retryDelaySeconds * 1000,
        probeIntervalMilliseconds: parsed.probeIntervalSeconds * 1000,
        probe,
        onRecovered: (url) => client?.bringUpToDate(url) ?? Promise.resolve(),
      },
    );
    try {
      const refusal = await checkSampledLogprobs(protocol, fleet, transport, format, model);
      client = new OpenAICompatibleClient(transport, protocol, fleet, vocabulary, format, contexts.length === 0 ? undefined : Math.min(...contexts), serving, model, refusal);
      return client;
    } catch (error) {
      fleet.close();
      await vocabulary.dispose();
      throw error;
    }
  }

  get policyVersion(): number {
    return this.current.version;
  }

  /** Every endpoint: requests in flight, served and failed, up or down and why. */
  endpoints(): EndpointStatus[] {
    return this.fleet.status();
  }

  /** How long each weight update took, newest last. */
  weightUpdateTimings(): readonly WeightUpdateTiming[] {
    return this.timings;
  }

  /** The text of a token sequence, special tokens left out. */
  detokenize(tokenIds: ArrayLike<number>): string {
    return this.vocabulary.detokenize(Array.from(tokenIds) as Token[]);
  }

  async generate(requests: readonly GenerationRequest[], options: GenerateOptions = {}): Promise<GenerationOutput[]> {
    await this.swap;
    const version = this.current;
    version.inFlight++;
    try {
      return await Promise.all(requests.map((request) => this.generateOne(request, version, options.signal)));
    } finally {
      version.inFlight--;
      if (version.retired && version.inFlight === 0) void this.unloadVersion(version);
    }
  }

  /**
   * Loads the new weights on every live endpoint (an endpoint down now gets
   * them when it comes back), then routes new calls to them. Calls already
   * running finish on the old version, which is unloaded after.
   */
  async swapWeights(update: WeightUpdate): Promise<void> {
    const parsed = parseInput(WeightUpdateSchema, update);
    if (parsed.modelPath === undefined && parsed.loraPath === undefined) {
      throw new InvalidInputError("modelPath", "the new policy's GGUF file, or a loraPath for an adapter over the current base");
    }
    const serving = this.serving;
    if (serving === undefined) {
      throw new ServerCapabilityError(
        "a llama-server started with one model cannot load new weights (its /lora-adapters only rescales the adapters it started with): start it in router mode with --models-preset FILE and pass presetFile (--preset-file) and the base preset's name as model",
      );
    }
    const swap = (async () => {
      const started = performance.now();
      const version = await serving.prepare(parsed);
      const urls = this.fleet.liveUrls();
      const outcomes = await Promise.allSettled(
        urls.map(async (url) => {
          const began = performance.now();
          await serving.load(url, version, parsed);
          return { url, seconds: (performance.now() - began) / 1000 };
        }),
      );
      const endpoints = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [reason(outcome.reason)] : []));
      if (endpoints.length === 0) throw new EndpointUnavailableError(`no endpoint could load policy version ${version.version}: ${failures.join("; ")}`);
      // An endpoint that could not load it stops taking requests; it is probed, and loads the current version when it answers again.
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.status === "rejected") this.fleet.markDown(urls[index] as string, `could not load policy version ${version.version}: ${reason(outcome.reason)}`);
      }
      const previous = this.current;
      this.current = { ...version, inFlight: 0, retired: false };
      this.currentUpdate = parsed;
      this.timings.push({ policyVersion: version.version, seconds: (performance.now() - started) / 1000, endpoints });
      previous.retired = true;
      if (previous.inFlight === 0) await this.unloadVersion(previous);
    })();
    this.swap = swap.catch(() => undefined);
    await swap;
  }

  async dispose(): Promise<void> {
    await this.swap;
    this.fleet.close();
    await this.vocabulary.dispose();
  }

  private async generateOne(request: GenerationRequest, version: VersionInFlight, signal: AbortSignal | undefined): Promise<GenerationOutput> {
    const promptTokens = [...this.format.tokenize(request.messages), ...((request.prefixTokenIds ?? []) as Token[])];
    const room = this.contextSize === undefined ? request.sampler.maxTokens : this.contextSize - promptTokens.length;
    if (room < 1) {
      throw new InvalidInputError("messages", `a prompt shorter than the servers' context of ${this.contextSize} tokens (this one has ${promptTokens.length}); shorten it or start the servers with a larger context`);
    }
    const serverRequest: ServerCompletionRequest = {
      model: version.model,
      promptTokenIds: promptTokens,
      maxTokens: Math.min(request.sampler.maxTokens, room),
      sampler: request.sampler,
      ...(request.constraint !== null && { grammar: grammarTextFor(request.constraint) }),
      ...(request.constraint?.logitBias !== undefined && { logitBias: this.logitBias(request.constraint.logitBias) }),
    };
    let answered: { value: ServerCompletion; url: string };
    try {
      answered = await this.fleet.run((endpoint) => this.complete(endpoint, serverRequest, version.version, signal), signal);
    } catch (error) {
      // As the in-process engine ends an aborted call: an "abort" output (the server's partial tokens are not sent back).
      if (signal?.aborted !== true) throw error;
      return { text: "", promptTokenIds: Int32Array.from(promptTokens), completionTokenIds: new Int32Array(0), completionLogprobs: new Float64Array(0), finishReason: "abort", constrained: request.constraint !== null, policyVersion: version.version };
    }
    const { value: completion, url } = answered;
    const { text, stopped } = completionText(this.vocabulary, completion.tokenIds as Token[], request.sampler.stop);
    return {
      text,
      promptTokenIds: Int32Array.from(promptTokens),
      completionTokenIds: Int32Array.from(completion.tokenIds),
      completionLogprobs: Float64Array.from(completion.logprobs),
      finishReason: signal?.aborted === true ? "abort" : stopped ? "stop" : completion.finishReason,
      constrained: request.constraint !== null,
      policyVersion: version.version,
      endpoint: url,
    };
  }

  /** One completion from one endpoint, its model name checked and its missing logprobs filled. */
  private async complete(endpoint: string, request: ServerCompletionRequest, version: number, signal: AbortSignal | undefined): Promise<ServerCompletion> {
    const response = await requestJson(endpoint, this.protocol.completionPath, this.transport, { method: "POST", body: this.protocol.completionBody(request), ...(signal && { signal }) });
    const read = this.protocol.readCompletion(response);
    if (typeof read === "string") throw new EndpointRequestError(endpoint, read, false);
    if (read.model !== request.model) {
      throw new PolicyVersionMismatchError(
        `${endpoint} answered with model ${JSON.stringify(read.model)} where the request named ${JSON.stringify(request.model)} (policy version ${version}): is it serving another model, or a router without selfplay's presets?`,
      );
    }
    return { ...read, logprobs: await this.fillMissingLogprobs(endpoint, request, read) };
  }

  /** Asks again, one position at a time, for the logprobs the server left out (see `ServerProtocol.nextTokenLogprob`). */
  private async fillMissingLogprobs(endpoint: string, request: ServerCompletionRequest, completion: ServerCompletion): Promise<number[]> {
    const filled: number[] = [];
    for (const [index, logprob] of completion.logprobs.entries()) {
      if (logprob !== undefined) {
        filled.push(logprob);
        continue;
      }
      const next = this.protocol.nextTokenLogprob;
      const tokenId = completion.tokenIds[index] as number;
      const prefix: ServerCompletionRequest = { ...request, promptTokenIds: [...request.promptTokenIds, ...completion.tokenIds.slice(0, index)] };
      const answer = next === undefined ? undefined : next.read(await requestJson(endpoint, this.protocol.completionPath, this.transport, { method: "POST", body: next.body(prefix) }), tokenId);
      if (answer === undefined) throw new EndpointRequestError(endpoint, `no probability for completion token ${index} (id ${tokenId}), nor when asked for it alone`, false);
      filled.push(answer);
    }
    return filled;
  }

  private logitBias(bias: Readonly<Record<string, number>>): Array<[number, number]> {
    return Object.entries(bias).map(([text, value]) => {
      const ids = this.vocabulary.tokenize(text, true);
      if (ids.length !== 1) throw new InvalidInputError("constraint.logitBias", `keys that are one token each (${JSON.stringify(text)} is ${ids.length})`, text);
      return [ids[0] as number, value];
    });
  }

  /** An endpoint back after a failure serves the current version before it takes requests. */
  private async bringUpToDate(url: string): Promise<void> {
    const update = this.currentUpdate;
    if (update === undefined || this.serving === undefined) return;
    await this.serving.load(url, this.current, update);
  }

  private async unloadVersion(version: VersionInFlight): Promise<void> {
    if (this.serving === undefined || version.version === 0) return;
    // Best effort: an endpoint that is down has dropped it anyway, and a leftover adapter costs memory, not correctness.
    await Promise.all(this.fleet.liveUrls().map((url) => this.serving?.unload(url, version).catch(() => undefined)));
    await this.serving.retire?.(version).catch(() => undefined);
  }
}

async function readCaFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new InvalidInputError("tls.caFile", "a readable PEM file of certificate authorities", `${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

async function probeHealth(url: string, transport: HttpTransport): Promise<void> {
  await requestOk(url, "/health", transport, { method: "GET", timeoutMilliseconds: Math.min(transport.timeoutMilliseconds, 5000) });
}

/** Every endpoint's slots, context and model; all of them must answer. */
async function connectAll(options: ParsedOpenAICompatibleClientOptions, transport: HttpTransport): Promise<EndpointInfo[]> {
  const outcomes = await Promise.allSettled(options.endpoints.map((url) => connect(url, options, transport)));
  const failures = outcomes.flatMap((outcome, index) => (outcome.status === "rejected" ? [`${options.endpoints[index]}: ${reason(outcome.reason)}`] : []));
  if (failures.length > 0) {
    throw new EndpointUnavailableError(`cannot use ${failures.length} of ${options.endpoints.length} endpoint(s) — ${failures.join("; ")}. Start them (or drop them from --endpoint) and run again`);
  }
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<EndpointInfo>).value);
}

async function connect(url: string, options: ParsedOpenAICompatibleClientOptions, transport: HttpTransport): Promise<EndpointInfo> {
  const quick = { ...transport, timeoutMilliseconds: Math.min(transport.timeoutMilliseconds, 10_000) };
  await probeHealth(url, quick);
  if (options.serverKind === "vllm") {
    const models = ModelListSchema.parse(await requestJson(url, "/v1/models", quick, { method: "GET" }));
    const entry = models.data.find((candidate) => candidate.id === options.model) ?? models.data[0];
    return { url, capacity: DEFAULT_CAPACITY, contextSize: entry?.max_model_len, model: entry?.id as string };
  }
  // A router answers /props for a model named in the query (loading it); a single-model server ignores the query.
  const query = options.model === undefined ? "" : `?model=${encodeURIComponent(options.model)}`;
  const props = LlamaServerPropsSchema.safeParse(await requestJson(url, `/props${query}`, { ...transport, timeoutMilliseconds: options.swapTimeoutSeconds * 1000 }, { method: "GET" }));
  if (!props.success) throw new ServerCapabilityError(`${url}/props lacks total_slots and n_ctx: is it llama-server (serverKind "llama-server")?`);
  const model = options.model ?? (ModelListSchema.parse(await requestJson(url, "/v1/models", quick, { method: "GET" })).data[0]?.id as string);
  return { url, capacity: props.data.total_slots, contextSize: props.data.default_generation_settings.n_ctx, model };
}

/**
 * The most likely next token's logprob at temperature 1 and at 0.5: raw
 * logprobs (before the sampler) are the same at both, those of the sampled
 * distribution are not. A one-hot distribution cannot tell; it passes.
 */
async function checkSampledLogprobs(protocol: ServerProtocol, fleet: EndpointFleet, transport: HttpTransport, format: PromptFormat, model: string): Promise<string | undefined> {
  const promptTokenIds = format.tokenize([{ role: "user", content: "1+1=" }]);
  const ask = async (temperature: number) => {
    const request: ServerCompletionRequest = {
      model,
      promptTokenIds,
      maxTokens: 1,
      sampler: { temperature, topK: 0, topP: 1, minP: 0, seed: 1, maxTokens: 1, stop: [] },
    };
    const { value } = await fleet.run((url) => requestJson(url, protocol.completionPath, transport, { method: "POST", body: protocol.topLogprob.body(request) }));
    return protocol.topLogprob.read(value);
  };
  const [one, half] = [await ask(1), await ask(0.5)];
  if (one === undefined || half === undefined) {
    return `the server returned no logprobs for a one-token request; ${protocol.sampledLogprobsAdvice}`;
  }
  if (Math.abs(one) < TEMPERATURE_PROBE_TOLERANCE || Math.abs(one - half) >= TEMPERATURE_PROBE_TOLERANCE) return undefined;
  return `its logprobs do not change with the temperature (top token ${one.toFixed(4)} at 1 and at 0.5), so they are raw logits' and not the distribution tokens are drawn from: ${protocol.sampledLogprobsAdvice}`;
}

function reason(error: unknown): string {
  if (error instanceof EndpointRequestError) return error.reason;
  return error instanceof Error ? error.message : String(error);
}
