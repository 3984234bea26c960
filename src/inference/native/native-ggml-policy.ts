import { InvalidModelFileError, NativeEngineDisposedError } from "../errors/index.js";
import type { AddonErrorCode, AddonGgmlPolicy, AddonGgmlPolicyOptions, AddonGgmlTensorKind, GgmlKernelsInUse } from "./AddonTypes.js";
import type { Device } from "../device/device-option.js";
import type { ResolvedDevice } from "../device/resolve-device.js";
import { loadNativeAddon } from "./load-native-addon.js";
import { openNativeDevice } from "./open-native-device.js";
import { addonError } from "./addon-error.js";

/**
 * What a native ggml policy is loaded with: the forward graph's shape, the file, whether it trains,
 * and the device ("auto" when absent: the first GPU, else the CPU).
 */
export type NativeGgmlPolicyOptions = Omit<AddonGgmlPolicyOptions, "device"> & { device?: Device };

/** One packed row of sequences (see `packGgmlChunks`). */
export interface NativeGgmlChunk {
  tokens: Int32Array;
  sequenceLengths: Int32Array;
  /** One per sequence: the earlier sequence of the row it continues (completions sharing one prompt), −1 for none; absent when none does. */
  sequenceParents?: Int32Array;
  targetRows: Int32Array;
  targetTokens: Int32Array;
  temperatures: Float32Array;
  /** Targets × vocabulary values added to the logits before the temperature (constrained Steps); absent when none is constrained. */
  logitOffsets?: Float32Array;
}

export type NativeGgmlTensorKind = AddonGgmlTensorKind;

export interface NativeGgmlTensor {
  name: string;
  /** Innermost first, as GGUF lists them. */
  shape: number[];
  /** ggml's type name: f32, f16, q8_0, … */
  type: string;
  trainable: boolean;
}

export interface NativeGgmlStepSettings {
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  weightDecay: number;
  maxGradientNorm: number;
  /** Optimizer steps including this one. */
  step: number;
}

/**
 * The native addon's ggml policy, behind selfplay's errors. Calls are
 * serialised by the caller: forward (with gradients) then backward, chunk by
 * chunk, then step.
 */
export class NativeGgmlPolicy {
  private disposed = false;

  private constructor(
    private readonly policy: AddonGgmlPolicy,
    /** The device asked for and where it came to (memory as it was before loading). */
    readonly device: ResolvedDevice,
  ) {}

  /** Whether the addon can train on ggml here, or why not (not built, another llama.cpp release); loads nothing but the addon (the build `device` needs). */
  static async availability(device: Device = "auto"): Promise<{ available: true; reason?: undefined } | { available: false; reason: string }> {
    const { binding, reason } = await loadNativeAddon(device);
    if (binding === undefined) return { available: false, reason };
    return typeof binding.loadGgmlPolicy === "function" ? { available: true } : { available: false, reason: "the built addon has no ggml trainer (rebuild it: node scripts/build-native.mjs)" };
  }

  /** The policy, or the reason the addon cannot provide one (not built, another llama.cpp release). */
  static async load(options: NativeGgmlPolicyOptions): Promise<{ policy: NativeGgmlPolicy; reason?: undefined } | { policy: undefined; reason: string }> {
    const { binding, reason } = await loadNativeAddon(options.device ?? "auto");
    if (binding === undefined) return { policy: undefined, reason };
    const { device } = await openNativeDevice(options.device ?? "auto");
    try {
      return { policy: new NativeGgmlPolicy(await binding.loadGgmlPolicy({ ...options, device: device.name }), device) };
    } catch (error) {
      throw modelFileError(error, [options.modelPath, options.loraPath]) ?? addonError(error, "model");
    }
  }

  forward(chunk: NativeGgmlChunk, options: { entropy: boolean; gradients: boolean }): Promise<{ logprobs: Float32Array; entropy: Float32Array | undefined }> {
    return this.call(() => this.policy.forward(chunk, options));
  }

  /** Bytes of the compute buffer `forward` would allocate for `chunk` (the graph is built, nothing allocated). */
  estimate(chunk: NativeGgmlChunk, options: { entropy: boolean; gradients: boolean }): Promise<number> {
    return this.call(() => this.policy.estimate(chunk, options));
  }

  backward(logprobGradients: Float32Array, entropyGradients?: Float32Array): Promise<void> {
    return this.call(() => this.policy.backward(logprobGradients, entropyGradients));
  }

  step(settings: NativeGgmlStepSettings): Promise<{ gradientNorm: number; applied: boolean }> {
    return this.call(() => this.policy.step(settings));
  }

  clearGradients(): void {
    this.callSync(() => this.policy.clearGradients());
  }

  tensors(): NativeGgmlTensor[] {
    return this.callSync(() => this.policy.tensors());
  }

  readTensor(name: string, kind: NativeGgmlTensorKind): Float32Array {
    return this.callSync(() => this.policy.readTensor(name, kind));
  }

  writeTensor(name: string, kind: NativeGgmlTensorKind, values: Float32Array): void {
    this.callSync(() => this.policy.writeTensor(name, kind, values));
  }

  /** Bytes held natively: weights, optimizer state and the largest compute buffers so far. */
  get bytes(): number {
    return this.callSync(() => this.policy.bytes());
  }

  /** Graph nodes computed on the CPU although the policy is on another device, since it was loaded. */
  get fallbackNodes(): number {
    return this.callSync(() => this.policy.fallbackNodes());
  }

  /** The device's free and total bytes now. */
  deviceMemory(): { free: number; total: number } {
    const { memoryFree, memoryTotal } = this.callSync(() => this.policy.device());
    return { free: memoryFree, total: memoryTotal };
  }

  /** What computes the graphs: "avx512" (the trainer's own kernels), "generic" (its portable kernel beside ggml's operations) or "portable" (ggml's operations throughout). */
  get cpuKernels(): GgmlKernelsInUse {
    return this.callSync(() => this.policy.cpuKernels());
  }

  /** Frees the weights and optimizer state. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.policy.dispose();
  }

  private async call<T>(action: () => Promise<T>): Promise<T> {
    if (this.disposed) throw new NativeEngineDisposedError("the ggml policy was disposed");
    try {
      return await action();
    } catch (error) {
      throw addonError(error, "model");
    }
  }

  private callSync<T>(action: () => T): T {
    if (this.disposed) throw new NativeEngineDisposedError("the ggml policy was disposed");
    try {
      return action();
    } catch (error) {
      throw addonError(error, "model");
    }
  }
}

/**
 * A load refused for something in a file (a tensor's shape or type, an adapter
 * made for another model): the addon's message starts with that file's path.
 */
function modelFileError(error: unknown, paths: ReadonlyArray<string | undefined>): InvalidModelFileError | undefined {
  if (!(error instanceof Error) || (error as Error & { code?: AddonErrorCode }).code !== "SELFPLAY_INVALID_ARGUMENT") return undefined;
  const path = paths.find((candidate) => candidate !== undefined && error.message.startsWith(candidate));
  if (path === undefined) return undefined;
  const rest = error.message.slice(path.length);
  const field = /^: (\S+) (.*)$/s.exec(rest);
  return field ? new InvalidModelFileError(path, field[1] as string, field[2] as string) : new InvalidModelFileError(path, "file", rest.trim());
}
