import { DeviceSchema } from "../../inference/device/device-option.js";
import type { ResolvedDevice } from "../../inference/device/resolve-device.js";
import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import type { Constraint } from "../../core/schemas/constraint.js";
import { grammarTextFor } from "../../inference/grammar/grammar-text-for.js";
import { NativeConstraintMasks } from "../../inference/native/native-constraint-masks.js";
import { SeedSchema } from "../../core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { TfjsBackendNameSchema, describeBackendSelection } from "./backend/select-backend.js";
import { measureEngineFloor, type EngineFloor } from "../logprobs/engine-floor.js";
import { logprobAgreement, type LogprobAgreement } from "../logprobs/logprob-agreement.js";
import { sampleCompletions } from "../logprobs/sample-completions.js";
import { GgmlPolicy } from "../ggml/ggml-policy.js";
import { TrainerBackendSchema } from "../trainer/trainer-checkpoint.js";
import type { ScoredSequence } from "./policy/pack-sequences.js";
import { Policy } from "./policy/policy.js";

/** The client's default context: the model's training context, at most this. */
const ENGINE_DEFAULT_CONTEXT = 2048;

export const CheckLogprobsOptionsSchema = z.strictObject({
  /** GGUF model (llama or qwen2) to sample from and recompute. */
  modelPath: z.string().min(1),
  /** LoRA adapter over the model, applied on both sides. */
  loraPath: z.string().min(1).optional(),
  /** Completion tokens to sample and compare, at least. Default 2000. */
  tokens: z.number().int().min(1).default(2000),
  /** Sequences the engine decodes in parallel (each one a request of a round). Default 4. */
  sequences: z.number().int().min(1).max(256).default(4),
  /** Sampling temperatures, assigned to requests in turn. Default [0.7, 1]. */
  temperatures: z.array(z.number().positive().finite()).min(1).default([0.7, 1]),
  /** Seed of the prompts and of every request's sampler. Default 0. */
  seed: SeedSchema.default(0),
  /** Context per sequence in tokens. Default: the model's training context, at most 2048. */
  contextSize: z.number().int().min(16).optional(),
  /** CPU threads of the engine. Default 1. */
  threads: z.number().int().min(1).default(1),
  /** tfjs backends to try, best first. Default: tensorflow, wasm, cpu. */
  backends: z.array(TfjsBackendNameSchema).min(1).optional(),
  /** Which trainer recomputes the logprobs: `tfjs` (the reference) or `ggml` (the native addon, on llama.cpp's own ggml). Default tfjs. */
  trainer: TrainerBackendSchema.default("tfjs"),
  /**
   * Every other request answers under a JSON-schema constraint with a logit
   * bias (`CHECK_CONSTRAINT`); the trainer scores those tokens under the masks
   * the addon rebuilds, and they are reported apart (`constrained`). Default false.
   */
  constrained: z.boolean().default(false),
  /**
   * Also measure the engine's own floor (`measureEngineFloor`: the first 16
   * requests re-decoded alone and in one batch of 16), the yardstick the
   * agreement is read against. Default true.
   */
  engineFloor: z.boolean().default(true),
  /**
   * Where the engine and the ggml trainer run: "auto" (the first GPU ggml finds, never a CPU-type Vulkan
   * device; else the CPU), "cpu", "cuda[:N]" or "vulkan[:N]". tfjs runs on the CPU (wasm) whatever this says. Default "auto".
   */
  device: DeviceSchema.default("auto"),
});
export type CheckLogprobsOptions = z.input<typeof CheckLogprobsOptionsSchema>;

export interface CheckLogprobsResult extends LogprobAgreement {
  modelPath: string;
  loraPath: string | null;
  /** The tfjs backend and why better ones were passed over, or "ggml cpu" ("ggml Vulkan0" … on another device). */
  backend: string;
  /** The trainer that recomputed the logprobs. */
  trainer: "tfjs" | "ggml";
  /** Which estimator `mismatchKl` is: k3 = e^δ − 1 − δ, δ = trainer − engine logprob. */
  klEstimator: "k3";
  /** Completions sampled. */
  sequences: number;
  contextSize: number;
  /** Largest position (0-based) of a compared token; contextSize − 1 when a completion reached the end of the context. */
  maxPosition: number;
  byTemperature: Array<LogprobAgreement & { temperature: number }>;
  /** Tokens sampled under a grammar: the engine's logprob is of the masked distribution, so they are compared apart. */
  constrained: LogprobAgreement;
  /** The engine against itself (alone vs in a batch of 16); null when not measured. */
  engineFloor: EngineFloor | null;
  /** The device the engine sampled (and measured its floor) on, and why. */
  engineDevice: ResolvedDevice;
  /** The ggml trainer's device; null for tfjs (the CPU, wasm). */
  trainerDevice: ResolvedDevice | null;
}

/** What `constrained` samples under: a small JSON object, a bias toward closing strings so a random model's answers end. */
export const CHECK_CONSTRAINT: Constraint = {
  kind: "json-schema",
  schema: {
    type: "object",
    properties: { answer: { type: "string", maxLength: 40 }, confidence: { type: "number", minimum: 0, maximum: 1 }, done: { type: "boolean" } },
    required: ["answer", "confidence", "done"],
    additionalProperties: false,
  },
  logitBias: { '"': 2 },
};

/**
 * Samples at least `tokens` completion tokens on the engine in exact mode
 * (f32 KV cache, untruncated sampler), recomputes every token's logprob with
 * the tfjs policy, and reports how far they are apart. Completions run to an
 * end-of-sequence token or the end of the context, and some prompts nearly
 * fill it (`sampleCompletions`), so late positions are exercised too.
 */
export async function checkLogprobs(options: CheckLogprobsOptions): Promise<CheckLogprobsResult> {
  const parsed = parseInput(CheckLogprobsOptionsSchema, options);
  const { modelPath, loraPath, tokens, sequences, temperatures, seed, threads } = parsed;
  // The policy first: a model it cannot compute fails before any sampling.
  const policy = await loadScorer(parsed);
  try {
    const contextSize = parsed.contextSize ?? Math.min(policy.configuration.contextLength, ENGINE_DEFAULT_CONTEXT);
    const client = await LlamaInferenceClient.create({ modelPath, loraPath, mode: "exact", sequences, threads, contextSize, device: parsed.device });
    const engineDevice = client.device;
    let samples: Awaited<ReturnType<typeof sampleCompletions>>;
    try {
      samples = await sampleCompletions(client, { tokens, sequences, temperatures, seed, contextSize, ...(parsed.constrained && { constraint: CHECK_CONSTRAINT }) });
    } finally {
      await client.dispose();
    }

    const engineFloor = parsed.engineFloor
      ? await measureEngineFloor({ modelPath, loraPath, requests: samples.map(({ request }) => request), contextSize, threads, device: parsed.device })
      : null;
    const masks = await constraintMasksOf(samples, modelPath);
    const trainerLogprobs = await policy.logprobsBatch(
      samples.map(({ request, output }, index) => ({
        promptTokenIds: output.promptTokenIds,
        completionTokenIds: output.completionTokenIds,
        temperature: request.sampler.temperature,
        ...(masks[index] !== undefined && { masks: masks[index] }),
      })),
    );
    const agreementOf = (keep: (sample: (typeof samples)[number]) => boolean): LogprobAgreement => {
      const chosen = samples.map((sample, index) => ({ sample, index })).filter(({ sample }) => keep(sample));
      return logprobAgreement(
        concatenate(chosen.map(({ sample }) => sample.output.completionLogprobs)),
        concatenate(chosen.map(({ index }) => trainerLogprobs[index] as Float64Array)),
      );
    };
    return {
      modelPath,
      loraPath: loraPath ?? null,
      backend: policy.backend,
      trainer: parsed.trainer,
      klEstimator: "k3",
      ...agreementOf(({ output }) => !output.constrained),
      sequences: samples.length,
      contextSize,
      maxPosition: Math.max(...samples.map(({ output }) => output.promptTokenIds.length + output.completionTokenIds.length - 1)),
      byTemperature: [...new Set(temperatures)].map((temperature) => ({
        temperature,
        ...agreementOf(({ request, output }) => request.sampler.temperature === temperature && !output.constrained),
      })),
      constrained: agreementOf(({ output }) => output.constrained),
      engineFloor,
      engineDevice,
      trainerDevice: policy.device ?? null,
    };
  } finally {
    await policy.dispose();
  }
}

/** The rebuilt grammar masks of each constrained sample (undefined for the others). */
async function constraintMasksOf(samples: Awaited<ReturnType<typeof sampleCompletions>>, modelPath: string) {
  if (!samples.some(({ request }) => request.constraint !== null)) return samples.map(() => undefined);
  const replayer = await NativeConstraintMasks.create(modelPath);
  try {
    const masks = [];
    for (const { request, output } of samples) {
      const { constraint } = request;
      masks.push(
        constraint === null
          ? undefined
          : await replayer.replay(
              { gbnf: grammarTextFor(constraint), ...(constraint.logitBias !== undefined && { logitBias: constraint.logitBias }) },
              output.completionTokenIds,
            ),
      );
    }
    return masks;
  } finally {
    await replayer.dispose();
  }
}

/** What check-logprobs needs of a trainer's policy, whichever backend it is. */
interface LogprobScorer {
  configuration: { contextLength: number };
  backend: string;
  /** The ggml trainer's device (tfjs: none). */
  device?: ResolvedDevice;
  logprobsBatch(sequences: readonly ScoredSequence[]): Promise<Float64Array[]>;
  dispose(): Promise<void> | void;
}

async function loadScorer(options: z.output<typeof CheckLogprobsOptionsSchema>): Promise<LogprobScorer> {
  const { modelPath, loraPath, trainer } = options;
  if (trainer === "ggml") {
    const policy = await GgmlPolicy.load({ modelPath, loraPath, threads: options.threads, device: options.device });
    return { configuration: policy.configuration, backend: `ggml ${policy.device.cpu ? "cpu" : policy.device.name}`, device: policy.device, logprobsBatch: (sequences) => policy.logprobsBatch(sequences), dispose: () => policy.dispose() };
  }
  const policy = await Policy.load({ modelPath, loraPath, backends: options.backends });
  return {
    configuration: policy.configuration,
    backend: describeBackendSelection(policy.backend),
    logprobsBatch: (sequences) => policy.logprobsBatch(sequences),
    dispose: () => policy.dispose(),
  };
}

function concatenate(arrays: readonly Float64Array[]): Float64Array {
  const joined = new Float64Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let offset = 0;
  for (const array of arrays) {
    joined.set(array, offset);
    offset += array.length;
  }
  return joined;
}
