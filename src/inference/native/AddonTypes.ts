// The whole binding of the native addon (native/, built to build/Release/selfplay_native.node),
// declared once. Only load-native-addon.ts loads it and only the native/ wrappers call it;
// none of these types leaves src/inference/native.

import type { GgmlDevice } from "../device/resolve-device.js";

/** Module exports of selfplay_native.node. */
export interface AddonBinding {
  /** llama.cpp release whose headers the addon was compiled against, e.g. "v0.4.0". */
  readonly llamaCppRelease: string;
  readonly llamaCppCommit: string;
  /** Paths of the libllama shared objects loaded into this process (node-llama-cpp's). */
  findLoadedLlamaLibraries(): string[];
  /** Resolves the addon's llama.cpp functions from that library; once per process. Throws when it cannot. */
  bindLlamaLibrary(path: string): void;
  /** ggml's devices in the bound build: the CPU, and its CUDA or Vulkan devices. */
  listDevices(): AddonDevice[];
  /** Loads a GGUF model off the JavaScript thread, every layer on `device` (ggml's name: "CPU", "Vulkan0" …). */
  loadModel(options: { path: string; device: string }): Promise<AddonModel>;
  /** Loads a llama/qwen2 model onto ggml for the trainer, off the JavaScript thread; checks every tensor first. */
  loadGgmlPolicy(options: AddonGgmlPolicyOptions): Promise<AddonGgmlPolicy>;
}

/** One of ggml's devices, as listDevices gives it (the shape resolveDevice reads). */
export type AddonDevice = GgmlDevice;

/** The forward graph's shape (from readPolicyConfiguration) and what to load. */
export interface AddonGgmlPolicyOptions {
  modelPath: string;
  ropeType: "normal" | "neox";
  vocabularySize: number;
  contextLength: number;
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  headCountKv: number;
  keyLength: number;
  valueLength: number;
  ropeFrequencyBase: number;
  rmsNormEpsilon: number;
  /** Every weight a trainable f32 parameter (with gradient and AdamW tensors), or with `loraPath` the adapter's factors; false: forward passes only. */
  trainable: boolean;
  threads: number;
  /** A LoRA adapter over the model (its factors f32; the base any type llama.cpp reads). */
  loraPath?: string;
  /** alpha / rank: what B·A·x is multiplied by. Required with `loraPath`. */
  loraScale?: number;
  /**
   * "auto" (absent): the trainer's AVX-512 custom operations where this CPU and ggml run them and the
   * backend is ggml's CPU device, else the portable kernel for the backward through quantised matrices and
   * ggml's own operations for the rest; "generic": that second choice on any CPU; "portable": ggml's own
   * operations whatever the CPU.
   */
  cpuKernels?: AddonGgmlCpuKernels;
  /** ggml's name of the device holding the weights and computing the graphs; default "CPU". */
  device?: string;
  /** ggml operation names (e.g. "SOFT_MAX_BACK") computed on the CPU even where the device has them. */
  cpuOperations?: string[];
}

export type AddonGgmlCpuKernels = "auto" | "generic" | "portable";

/** What computes a policy's graphs on the CPU: our AVX-512 kernels, our portable one beside ggml's operations, or ggml's operations alone. */
export type GgmlKernelsInUse = "avx512" | "generic" | "portable";

/** Sequences packed into one row: a block-diagonal causal mask keeps them apart. */
export interface AddonGgmlChunk {
  tokens: Int32Array;
  /** Tokens of each sequence, in order; they add up to tokens.length. */
  sequenceLengths: Int32Array;
  /** One per sequence: the earlier sequence it continues (its positions follow, its tokens see the parent's), −1 for none; absent when none continues. */
  sequenceParents?: Int32Array;
  /** Row whose logits score each target (the token after that row). */
  targetRows: Int32Array;
  targetTokens: Int32Array;
  temperatures: Float32Array;
  /** Targets × vocabulary values added to the logits before the temperature (a constrained Step's bias and mask); absent when none is constrained. */
  logitOffsets?: Float32Array;
}

export interface AddonGgmlPolicy {
  /** log-softmax(logits / T) of each target (and the distribution's entropy); with `gradients` the graph waits for `backward`. */
  forward(chunk: AddonGgmlChunk, options: { entropy: boolean; gradients: boolean }): Promise<{ logprobs: Float32Array; entropy: Float32Array | undefined }>;
  /** Bytes of the compute buffer `forward` would allocate for this chunk; builds the graph, allocates nothing. */
  estimate(chunk: AddonGgmlChunk, options: { entropy: boolean; gradients: boolean }): Promise<number>;
  /** Accumulates the gradient of Σ g·logprob + h·entropy over the pending forward pass. */
  backward(logprobGradients: Float32Array, entropyGradients?: Float32Array): Promise<void>;
  /** Clips the accumulated gradients to `maxGradientNorm`, applies AdamW (`step` counts this one), clears them. */
  step(settings: {
    learningRate: number;
    beta1: number;
    beta2: number;
    epsilon: number;
    weightDecay: number;
    maxGradientNorm: number;
    step: number;
  }): Promise<{ gradientNorm: number; applied: boolean }>;
  clearGradients(): void;
  tensors(): Array<{ name: string; shape: number[]; type: string; trainable: boolean }>;
  /** f32 tensors only; `adam_m`/`adam_v`/`gradient` of trainable weights. */
  readTensor(name: string, kind: AddonGgmlTensorKind): Float32Array;
  writeTensor(name: string, kind: AddonGgmlTensorKind, values: Float32Array): void;
  /** Bytes held: weights, optimizer state, compute buffers. */
  bytes(): number;
  /** What computes the graphs: the AVX-512 custom operations, or ggml's own operations throughout. */
  cpuKernels(): GgmlKernelsInUse;
  /** The device the policy is on, with its memory now. */
  device(): { name: string; description: string; memoryFree: number; memoryTotal: number };
  /** Graph nodes computed on the CPU although the policy is on another device, since it was loaded. */
  fallbackNodes(): number;
  dispose(): Promise<void>;
}

export type AddonGgmlTensorKind = "weight" | "gradient" | "adam_m" | "adam_v";

export interface AddonModel {
  readonly vocabularySize: number;
  readonly trainContextSize: number;
  createEngine(options: AddonEngineOptions): Promise<AddonEngine>;
  /** Replays a completion through llama.cpp's grammar sampler off the JavaScript thread: the allowed tokens at every position. */
  replayGrammarMasks(options: AddonGrammarMaskRequest): Promise<AddonGrammarMasks>;
  /**
   * Seconds of each of `runs` llama_decode calls of `tokens` as one batch with logits at every position, on a
   * context with the engine's exact-mode settings, off the JavaScript thread; a bad argument rejects with
   * SELFPLAY_INVALID_ARGUMENT.
   */
  timeForward(options: AddonForwardTimingRequest): Promise<Float64Array>;
  /** Releases the model; engines made from it keep it alive until they are disposed. */
  dispose(): Promise<void>;
}

export interface AddonGrammarMaskRequest {
  /** GBNF text; `grammarRoot` defaults to "root". */
  grammar: string;
  grammarRoot?: string;
  /** One Step's completion; an end-of-generation token may only come last. */
  completionTokens: Int32Array;
  /** Token texts of a logit bias, each resolved to its one token id (as node-llama-cpp's `tokenize(text, true)`). */
  logitBiasTexts?: string[];
}

export interface AddonForwardTimingRequest {
  /** 1 to 512 ids of the model's vocabulary: one sequence from position 0, decoded in one batch (n_batch = n_ubatch = its length). */
  tokens: Int32Array;
  /** n_threads and n_threads_batch of the context: 1 to 1024. */
  threads: number;
  /** Timed decodes, the cache cleared before each: 1 to 1000. */
  runs: number;
}

export interface AddonGrammarMasks {
  vocabularySize: number;
  /** 32-bit words per position: ceil(vocabularySize / 32). */
  wordsPerPosition: number;
  /** One bitset per completion token; bit `t % 32` of word `t / 32` is set when token t was allowed. */
  allowed: Uint32Array<ArrayBuffer>;
  /** The token id of each `logitBiasTexts` entry, in order. */
  logitBiasTokens: Int32Array<ArrayBuffer>;
}

export interface AddonEngineOptions {
  sequences: number;
  /** Tokens of context per sequence; llama.cpp rounds it up to a multiple of 256. */
  contextSize: number;
  threads: number;
  /** f32 KV cache and no flash attention. */
  exact: boolean;
  loraPath?: string;
}

export interface AddonEngine {
  /** Tokens of context each sequence has, as llama.cpp made it. */
  readonly contextSize: number;
  readonly sequences: number;
  /** `callId` names the call for `abort`; it must not be in flight already. */
  generate(requests: readonly AddonGenerationRequest[], callId: number): Promise<AddonGenerationResult[]>;
  /** Ends the call's unfinished requests with finishReason "abort" at the next step. Unknown ids are ignored. */
  abort(callId: number): void;
  /** Stops the loop (pending calls reject) and frees the context. */
  dispose(): Promise<void>;
}

export interface AddonGenerationRequest {
  promptTokens: Int32Array;
  /** Cut to the room the context leaves after the prompt. */
  maxTokens: number;
  temperature: number;
  topK: number;
  topP: number;
  minP: number;
  seed: number;
  /** GBNF text; `grammarRoot` defaults to "root". */
  grammar?: string;
  grammarRoot?: string;
  /** Added to the logits of these tokens before the grammar mask and the temperature. */
  logitBiasTokens?: Int32Array;
  logitBiasValues?: Float64Array;
  /** UTF-8 strings; a request ends at the token that completes one. */
  stopSequences?: string[];
}

export interface AddonGenerationResult {
  tokens: Int32Array;
  /** Natural log of each token's probability under the distribution it was drawn from; 0 when greedy. */
  logprobs: Float64Array;
  finishReason: "stop" | "length" | "abort";
}

/** `code` of the errors the addon throws or rejects with. */
export type AddonErrorCode =
  | "SELFPLAY_INVALID_ARGUMENT"
  | "SELFPLAY_INVALID_GRAMMAR"
  | "SELFPLAY_DISPOSED"
  | "SELFPLAY_LOAD_FAILED"
  | "SELFPLAY_GENERATION_FAILED"
  | "SELFPLAY_GRAMMAR_REJECTED_TOKEN";
