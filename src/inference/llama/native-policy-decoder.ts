import type { LlamaModel } from "node-llama-cpp";
import type { Device } from "../device/device-option.js";
import type { ResolvedDevice } from "../device/resolve-device.js";
import { NativeGenerationEngine } from "../native/native-generation-engine.js";
import type { NativeGenerationRequest } from "../native/native-generation-request.js";
import { grammarTextFor, logitBiasTokenIds } from "./constraint-sampling.js";
import type { DecodedCompletion, DecodeJob, PolicyDecoder } from "./policy-decoder.js";

export interface NativePolicyDecoderOptions {
  modelPath: string;
  loraPath?: string;
  sequences: number;
  contextSize: number;
  threads: number;
  mode: "exact" | "fast";
  device: Device;
}

/**
 * Decodes through selfplay's native loop. node-llama-cpp still tokenises,
 * detokenises and turns constraints into grammar text; the loop gets token ids.
 */
export class NativePolicyDecoder implements PolicyDecoder {
  private constructor(
    private readonly model: LlamaModel,
    private readonly engine: NativeGenerationEngine,
  ) {}

  static async create(model: LlamaModel, options: NativePolicyDecoderOptions): Promise<NativePolicyDecoder> {
    return new NativePolicyDecoder(model, await NativeGenerationEngine.create(options));
  }

  get contextSize(): number {
    return this.engine.contextSize;
  }

  get device(): ResolvedDevice {
    return this.engine.device;
  }

  decode(jobs: readonly DecodeJob[], signal: AbortSignal | undefined): Promise<DecodedCompletion[]> {
    return this.engine.generate(jobs.map((job) => this.requestFor(job)), { signal });
  }

  dispose(): Promise<void> {
    return this.engine.dispose();
  }

  private requestFor({ promptTokens, request, tokenBudget }: DecodeJob): NativeGenerationRequest {
    const { sampler, constraint } = request;
    return {
      promptTokenIds: Int32Array.from(promptTokens),
      maxTokens: tokenBudget,
      sampler,
      stop: sampler.stop,
      ...(constraint !== null && { grammar: { gbnf: grammarTextFor(constraint) } }),
      ...(constraint?.logitBias !== undefined && { logitBias: logitBiasTokenIds(this.model, constraint.logitBias) }),
    };
  }
}
