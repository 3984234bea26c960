import { z } from "zod";

/** How selfplay talks to a server: the request fields that set the sampler chain and return token ids and logprobs differ. */
export const ServerKindSchema = z.enum(["llama-server", "vllm"]);
export type ServerKind = z.infer<typeof ServerKindSchema>;

const EndpointUrlSchema = z.url({ protocol: /^https?$/, error: "an http:// or https:// URL, e.g. http://127.0.0.1:8080" });

export const OpenAICompatibleClientOptionsSchema = z.strictObject({
  /** Base URLs of the servers, e.g. `http://10.0.0.5:8080` (llama-server) or `http://10.0.0.6:8000` (vLLM). */
  endpoints: z.array(EndpointUrlSchema).min(1),
  /** Which server software every endpoint runs. Default llama-server. */
  serverKind: ServerKindSchema.default("llama-server"),
  /**
   * The GGUF file the servers serve (or one with the same vocabulary): the
   * client tokenises prompts itself, so a Step's prompt ids are the ones the
   * server saw, and detokenises completions to find stop strings. On vLLM it is
   * also the base a `.gguf` LoRA update was trained on, which that adapter's
   * PEFT form is written against (`writePeftAdapter`).
   */
  modelPath: z.string().min(1),
  /** Model name sent in every request: vLLM's served model name; llama-server's alias (router mode: the base preset's name). Default: what the first endpoint lists. */
  model: z.string().min(1).optional(),
  /** Bearer token sent as `Authorization` (llama-server `--api-key`, vLLM `--api-key`). */
  apiKey: z.string().min(1).optional(),
  /** TLS for https endpoints: a PEM bundle of certificate authorities to trust, and whether to check certificates (default true). */
  tls: z.strictObject({ caFile: z.string().min(1).optional(), rejectUnauthorized: z.boolean().default(true) }).default({ rejectUnauthorized: true }),
  /** Seconds one request may take before it is abandoned and retried elsewhere. Default 120. */
  requestTimeoutSeconds: z.number().positive().default(120),
  /** Tries per request across the fleet before the call fails. Default 4. */
  attempts: z.number().int().min(1).default(4),
  /** First retry delay in seconds; it doubles each retry (with jitter), up to 8 s. Default 0.25. */
  retryDelaySeconds: z.number().min(0).default(0.25),
  /** Seconds between health probes of an endpoint marked down. Default 2. */
  probeIntervalSeconds: z.number().positive().default(2),
  /** Requests in flight per endpoint at most. Default: the server's slots (llama-server `/props` total_slots), else 8. */
  maxInFlightPerEndpoint: z.number().int().min(1).optional(),
  /**
   * llama-server only, needed for new weights: the router's `--models-preset`
   * INI file, which selfplay extends with one section per policy version (the
   * new adapter over the base preset's model). A running llama-server cannot
   * load a new adapter file otherwise.
   */
  presetFile: z.string().min(1).optional(),
  /** Seconds a weight update may take on each endpoint (a child model load in router mode). Default 300. */
  swapTimeoutSeconds: z.number().positive().default(300),
});
export type OpenAICompatibleClientOptions = z.input<typeof OpenAICompatibleClientOptionsSchema>;
export type ParsedOpenAICompatibleClientOptions = z.output<typeof OpenAICompatibleClientOptionsSchema>;
