import { totalmem } from "node:os";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { NativeAddonUnavailableError } from "../../inference/errors/index.js";
import { DeviceSchema } from "../../inference/device/device-option.js";
import type { ResolvedDevice } from "../../inference/device/resolve-device.js";
import { openNativeDevice } from "../../inference/native/open-native-device.js";
import { parseInput } from "../../core/parse-input.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import { ggmlByteLength } from "../../gguf/ggml-type.js";
import { loraFactor } from "../../inference/model-files/add-lora-update.js";
import { validateLoraAdapter } from "../../inference/model-files/validate-lora-adapter.js";
import { NativeGgmlPolicy, type NativeGgmlChunk, type NativeGgmlTensor } from "../../inference/native/native-ggml-policy.js";
import type { GgmlKernelsInUse } from "../../inference/native/AddonTypes.js";
import type { ScoredSequence } from "../tfjs/policy/pack-sequences.js";
import type { PolicyConfiguration } from "../tfjs/policy/policy-configuration.js";
import { readPolicyConfiguration } from "../tfjs/policy/read-policy-configuration.js";
import { GgmlMemoryError, GgmlTrainerUnavailableError } from "./errors/index.js";
import { groupByPrompt } from "./group-by-prompt.js";
import { packGgmlChunks } from "./pack-ggml-chunks.js";

/**
 * Types ggml's CPU backend may hold in its repacked (interleaved) buffer type, where llama.cpp puts them
 * for faster products: x86 repacks q4_0, q4_K, q2_K, iq4_nl and mxfp4, ARM q8_0 as well. The memory
 * check counts a second copy of these for LoRA training whether or not this CPU repacks them.
 */
const REPACKED_TYPES: ReadonlySet<string> = new Set(["q4_0", "q4_K", "q2_K", "iq4_nl", "mxfp4", ...(process.arch === "arm64" ? ["q8_0"] : [])]);

export const GgmlPolicyOptionsSchema = z.strictObject({
  /** GGUF model, llama or qwen2. Trainable policies need f32 weights; forward-only ones read f16, bf16, q4_0–q8_0 and k-quants too. */
  modelPath: z.string().min(1),
  /**
   * A llama.cpp LoRA adapter over the model (checked by `validateLoraAdapter`, one rank for every pair).
   * With it the factors are what trains, over a frozen base of any type llama.cpp reads.
   */
  loraPath: z.string().min(1).optional(),
  /** Train: every weight (f32 gradient and AdamW moments are allocated), or the adapter's factors with `loraPath`; false: scoring only. Default false. */
  trainable: z.boolean().default(false),
  /** CPU threads of ggml's backend. Default 1. */
  threads: z.number().int().min(1).default(1),
  /**
   * Which kernels compute on the CPU. "auto": the trainer's own AVX-512 operations (f32 matrix
   * products forward and backward, the attention softmax, AdamW) where this x86 CPU has AVX-512 and the
   * backend is ggml's CPU device, else ggml's own operations; "portable": ggml's own operations whatever
   * the CPU (the backward's out_prods as mul_mat of transposed copies), the path a CPU without AVX-512
   * takes for everything but one product. "generic": what a CPU without AVX-512 gets under "auto" — the
   * trainer's portable kernel for the backward through a LoRA's frozen quantised matrices (ggml's own out_prod
   * dequantises the whole matrix once per token), ggml's operations for the rest. All give the same numbers up
   * to f32 rounding (the sums run in other orders). Default "auto".
   */
  cpuKernels: z.enum(["auto", "generic", "portable"]).default("auto"),
  /**
   * Where the weights live and the graphs run: "auto" (default: the first GPU ggml finds, never a
   * CPU-type Vulkan device; else the CPU), "cpu", "cuda[:N]" or "vulkan[:N]". Off the CPU, ggml's
   * CPU backend computes any node the device lacks (counted: `fallbackNodes`), and a LoRA's frozen
   * matrices are held a second time, transposed in f32, for the backward pass (4 bytes a weight).
   */
  device: DeviceSchema.default("auto"),
  /** ggml operation names (e.g. "SOFT_MAX_BACK") computed on the CPU even on a device that has them: checks the fallback. Default none. */
  cpuOperations: z.array(z.string().min(1)).default([]),
  /**
   * Tokens per packed row (one graph). A row's attention covers all its
   * tokens (the mask only zeroes pairs from different sequences), so its cost
   * grows with the square of this while the graph count falls: 64–128 was
   * fastest for RL minibatches of 25–50-token sequences on the 2-core machine
   * (update 1.2–1.5 s at 128, 4.2 s at 1,024). A longer sequence gets a row of
   * its own. Default 128.
   */
  maxChunkTokens: z.number().int().min(1).default(128),
  /**
   * Bytes the policy may hold: weights, gradients and AdamW moments, and the
   * largest compute buffer. Checked before anything is allocated (GgmlMemoryError
   * with the figure and the fix). Default: 90% of this machine's memory on the CPU,
   * 90% of the device's free memory (as ggml reports it before loading) on another device.
   */
  memoryLimitBytes: z.number().int().positive().optional(),
});
export type GgmlPolicyOptions = z.input<typeof GgmlPolicyOptionsSchema>;

/** ∂loss/∂logprob (and ∂loss/∂entropy) of one chunk's targets, given their values. */
export type LossDerivatives = (outputs: { logprobs: Float32Array; entropy: Float32Array | undefined; firstTarget: number }) => {
  logprobs: Float32Array;
  entropy?: Float32Array;
};

/**
 * A llama or qwen2 model on llama.cpp's own ggml (the native addon): forward
 * passes whose logprobs agree with the engine's, and training through
 * `accumulateGradients` + `step`. Sequences are packed into rows of
 * `maxChunkTokens` (no padding); outputs come back in input order.
 */
export class GgmlPolicy {
  /** Compute-buffer bytes by chunk shape: they depend on the token and target counts only. */
  private readonly computeBytes = new Map<string, number>();

  private constructor(
    readonly modelPath: string,
    /** The adapter loaded over the base, if any (its factors are what trains). */
    readonly loraPath: string | undefined,
    readonly configuration: PolicyConfiguration,
    readonly native: NativeGgmlPolicy,
    /** CPU threads of ggml's backend, as loaded. */
    readonly threads: number,
    private readonly memory: { maxChunkTokens: number; memoryLimitBytes: number; modelBytes: number },
  ) {}

  /** Tokens per packed row. */
  get maxChunkTokens(): number {
    return this.memory.maxChunkTokens;
  }

  static async load(options: GgmlPolicyOptions): Promise<GgmlPolicy> {
    const parsed = parseInput(GgmlPolicyOptionsSchema, options);
    const { modelPath, loraPath, trainable, threads, cpuKernels, maxChunkTokens, cpuOperations } = parsed;
    const lora = loraPath === undefined ? undefined : await adapterScale(loraPath, modelPath);
    const { device } = await openNativeDevice(parsed.device).catch((error: unknown) => {
      throw error instanceof NativeAddonUnavailableError ? new GgmlTrainerUnavailableError(error.reason) : error;
    });
    const memoryLimitBytes = parsed.memoryLimitBytes ?? Math.floor(0.9 * (device.cpu ? totalmem() : device.memoryFree));
    const reader = await GgufReader.open(modelPath);
    let configuration: PolicyConfiguration;
    let modelBytes: number;
    try {
      configuration = readPolicyConfiguration(reader);
      const tiedOutput = !reader.tensors.some((tensor) => tensor.name === "output.weight");
      modelBytes = reader.tensors.reduce((sum, tensor) => {
        const stored = ggmlByteLength(tensor.type, tensor.elementCount);
        // Full training: an f32 gradient and two AdamW moments per weight. LoRA training on the CPU: an f32 copy of
        // f16/bf16 matrices beside them (the backward reads the copy, the forward the matrix as stored), and a plain
        // copy of those the engine multiplies from a repacked buffer (CPU_REPACK), which out_prod cannot read; on
        // another device, a transposed f32 copy of every matrix a product multiplies by.
        if (trainable && lora === undefined) return sum + stored + 12 * tensor.elementCount;
        if (trainable && !device.cpu) {
          const multiplied = tensor.dims.length === 2 && (tensor.name !== "token_embd.weight" || tiedOutput);
          return sum + stored + (multiplied ? 4 * tensor.elementCount : 0);
        }
        if (trainable && (tensor.type === "f16" || tensor.type === "bf16") && tensor.dims.length === 2) return sum + stored + 4 * tensor.elementCount;
        if (trainable && REPACKED_TYPES.has(tensor.type) && tensor.dims.length === 2) return sum + 2 * stored;
        return sum + stored;
      }, 0);
    } finally {
      await reader.close();
    }
    // The adapter's f32 factors, with a gradient and two moments each when they train.
    modelBytes += (lora?.factorValues ?? 0) * (trainable ? 16 : 4);
    if (modelBytes > memoryLimitBytes) {
      throw new GgmlMemoryError(
        `loading ${modelPath}${trainable ? (lora ? " with a trainable LoRA" : " with every weight trainable") : ""} on ${device.name}`,
        modelBytes,
        memoryLimitBytes,
        lora ? "a smaller model, or a lower-rank adapter" : "train a LoRA over the frozen base instead of full weights (weights: \"lora\"), or a smaller model",
      );
    }
    const { architecture: _architecture, ...shape } = configuration;
    const { policy, reason } = await NativeGgmlPolicy.load({
      ...shape,
      modelPath,
      trainable,
      threads,
      cpuKernels,
      device: parsed.device,
      cpuOperations,
      ...(lora && { loraPath, loraScale: lora.scale }),
    });
    if (policy === undefined) throw new GgmlTrainerUnavailableError(reason);
    return new GgmlPolicy(modelPath, loraPath, configuration, policy, threads, { maxChunkTokens, memoryLimitBytes, modelBytes });
  }

  /** The device the policy is on, and why it was chosen. */
  get device(): ResolvedDevice {
    return this.native.device;
  }

  /** Graph nodes computed on the CPU although the policy is on another device, since it was loaded (0 on the CPU). */
  get fallbackNodes(): number {
    return this.native.fallbackNodes;
  }

  /** What computes the graphs here: "avx512" (the trainer's own kernels), "generic" (its portable kernel beside ggml's operations) or "portable" (ggml's operations throughout); see `cpuKernels` in the options. */
  get cpuKernels(): GgmlKernelsInUse {
    return this.native.cpuKernels;
  }

  /** The model's tensors as loaded (name, shape innermost first, ggml type, trainable). */
  get tensors(): NativeGgmlTensor[] {
    return this.native.tensors();
  }

  /** Log-probabilities of every sequence's completion tokens at its temperature, as the engine records them. */
  async logprobsBatch(sequences: readonly ScoredSequence[]): Promise<Float64Array[]> {
    // Scored with sequences of one prompt side by side, so that they share it; returned in input order.
    const order = groupByPrompt(sequences.map((sequence) => sequence.promptTokenIds));
    const grouped = order.map((index) => sequences[index] as ScoredSequence);
    const flat = await this.forwardAll(grouped, { entropy: false });
    const result: Float64Array[] = new Array<Float64Array>(sequences.length);
    splitBySequence(grouped, flat.logprobs).forEach((logprobs, position) => (result[order[position] as number] = logprobs));
    return result;
  }

  /**
   * Forward and backward passes over `sequences`, chunk by chunk, adding the
   * gradient of the loss to the accumulators (sequences in the order given:
   * put those of one prompt side by side, `groupByPrompt`, and they share
   * it). `derivatives` receives each
   * chunk's logprobs (and entropies) with the flat index of its first target
   * and returns the loss's derivatives with respect to them. Returns every
   * target's logprob and entropy, flat in input order.
   */
  async accumulateGradients(
    sequences: readonly ScoredSequence[],
    options: { entropy: boolean },
    derivatives: LossDerivatives,
  ): Promise<{ logprobs: Float32Array; entropy: Float32Array | undefined }> {
    return this.forwardAll(sequences, options, derivatives);
  }

  async dispose(): Promise<void> {
    await this.native.dispose();
  }

  private async forwardAll(
    sequences: readonly ScoredSequence[],
    options: { entropy: boolean },
    derivatives?: LossDerivatives,
  ): Promise<{ logprobs: Float32Array; entropy: Float32Array | undefined }> {
    const total = sequences.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
    const logprobs = new Float32Array(total);
    const entropy = options.entropy ? new Float32Array(total) : undefined;
    let firstTarget = 0;
    for (const { chunk } of packGgmlChunks(sequences, this.configuration.vocabularySize, this.maxChunkTokens)) {
      await this.checkMemory(chunk, { entropy: options.entropy, gradients: derivatives !== undefined });
      const outputs = await this.native.forward(chunk, { entropy: options.entropy, gradients: derivatives !== undefined });
      logprobs.set(outputs.logprobs, firstTarget);
      if (entropy && outputs.entropy) entropy.set(outputs.entropy, firstTarget);
      if (derivatives) {
        const gradients = derivatives({ ...outputs, firstTarget });
        await this.native.backward(gradients.logprobs, gradients.entropy);
      }
      firstTarget += chunk.targetRows.length;
    }
    return { logprobs, entropy };
  }

  /** Refuses a chunk whose compute buffer would take the policy past its memory limit, before ggml allocates it. */
  private async checkMemory(chunk: NativeGgmlChunk, options: { entropy: boolean; gradients: boolean }): Promise<void> {
    const key = `${chunk.tokens.length}:${chunk.targetRows.length}:${options.entropy}:${options.gradients}`;
    let bytes = this.computeBytes.get(key);
    if (bytes === undefined) {
      bytes = await this.native.estimate(chunk, options);
      this.computeBytes.set(key, bytes);
    }
    const needed = this.memory.modelBytes + bytes;
    if (needed > this.memory.memoryLimitBytes) {
      throw new GgmlMemoryError(
        `a ${options.gradients ? "training" : "scoring"} pass over ${chunk.tokens.length} packed tokens (${chunk.targetRows.length} scored) on ${this.modelPath}`,
        needed,
        this.memory.memoryLimitBytes,
        `shorter sequences or a smaller maxChunkTokens (now ${this.maxChunkTokens}; attention grows with its square), fewer records per minibatch, or LoRA instead of full weights`,
      );
    }
  }
}

/** The adapter's factor (alpha / rank, as llama.cpp applies it) and size, after the engine's own checks. */
async function adapterScale(loraPath: string, modelPath: string): Promise<{ scale: number; factorValues: number }> {
  const adapter = await validateLoraAdapter(loraPath, modelPath);
  const ranks = new Set(adapter.tensors.map((tensor) => tensor.rank));
  if (ranks.size !== 1) throw new InvalidInputError(`${loraPath} ranks`, "one rank for every pair (the ggml trainer applies one alpha / rank)", [...ranks]);
  const rank = [...ranks][0] as number;
  return {
    scale: loraFactor(1, adapter.alpha, rank),
    factorValues: adapter.tensors.reduce((sum, tensor) => sum + tensor.rank * (tensor.inputLength + tensor.outputLength), 0),
  };
}

function splitBySequence(sequences: readonly ScoredSequence[], flat: Float32Array): Float64Array[] {
  let offset = 0;
  return sequences.map((sequence) => {
    const part = Float64Array.from(flat.subarray(offset, offset + sequence.completionTokenIds.length));
    offset += sequence.completionTokenIds.length;
    return part;
  });
}
