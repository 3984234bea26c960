import type { LlamaContext, LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import type { FinishReason } from "../../core/schemas/step.js";
import type { ResolvedDevice } from "../device/resolve-device.js";
import type { ConstrainedSampling, ConstraintCompiler } from "./constraint-sampling.js";
import type { DecodedCompletion, DecodeJob, PolicyDecoder } from "./policy-decoder.js";
import { firstStop } from "./first-stop.js";
import { SequencePool } from "./sequence-pool.js";

export interface NodeLlamaCppDecoderOptions {
  sequences: number;
  contextSize: number;
  threads: number;
  mode: "exact" | "fast";
  loraPath?: string;
  /** Where node-llama-cpp put the model (nodeLlamaCppDevice). */
  device: ResolvedDevice;
}

/**
 * Decodes through node-llama-cpp's own API: each job takes one sequence of a
 * shared context and is evaluated token by token from JavaScript.
 */
export class NodeLlamaCppDecoder implements PolicyDecoder {
  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly pool: SequencePool,
    private readonly constraints: ConstraintCompiler,
    readonly device: ResolvedDevice,
  ) {}

  static async create(model: LlamaModel, constraints: ConstraintCompiler, options: NodeLlamaCppDecoderOptions): Promise<NodeLlamaCppDecoder> {
    const context = await model.createContext({
      sequences: options.sequences,
      contextSize: options.contextSize,
      threads: options.threads,
      ...(options.loraPath !== undefined && { lora: { adapters: [{ filePath: options.loraPath, scale: 1 }] } }),
      ...(options.mode === "exact"
        ? { flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" }
        : {}),
    });
    const sequences = Array.from({ length: options.sequences }, () => context.getSequence());
    return new NodeLlamaCppDecoder(model, context, new SequencePool(sequences), constraints, options.device);
  }

  get contextSize(): number {
    return this.context.contextSize;
  }

  decode(jobs: readonly DecodeJob[], signal: AbortSignal | undefined): Promise<DecodedCompletion[]> {
    return Promise.all(jobs.map((job) => this.decodeOne(job, signal)));
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
  }

  private async decodeOne(job: DecodeJob, signal: AbortSignal | undefined): Promise<DecodedCompletion> {
    const { constraint } = job.request;
    const constrained = constraint === null ? undefined : await this.constraints.samplingFor(this.model, constraint);
    const sequence = await this.pool.acquire();
    try {
      await sequence.clearHistory();
      return await this.evaluate(sequence, job, constrained, signal);
    } finally {
      this.pool.release(sequence);
    }
  }

  private async evaluate(
    sequence: LlamaContextSequence,
    job: DecodeJob,
    constrained: ConstrainedSampling | undefined,
    signal: AbortSignal | undefined,
  ): Promise<DecodedCompletion> {
    const { sampler } = job.request;
    const completionTokenIds: number[] = [];
    const completionLogprobs: number[] = [];
    const textTokens: DecodeJob["promptTokens"] = [];
    let finishReason: FinishReason = "length";
    const evaluation = sequence.evaluateWithMetadata(
      job.promptTokens,
      { confidence: true },
      // With a grammar, node-llama-cpp masks before the sampler chain when confidence is asked for, so the
      // recorded probability is the one under the masked (and biased) distribution the token was drawn from.
      {
        temperature: sampler.temperature,
        topK: sampler.topK,
        topP: sampler.topP,
        minP: sampler.minP,
        seed: sampler.seed,
        yieldEogToken: true,
        ...constrained,
      },
    );
    for await (const { token, confidence } of evaluation) {
      if (signal?.aborted) {
        finishReason = "abort";
        break;
      }
      completionTokenIds.push(token);
      // node-llama-cpp's confidence under greedy decoding is the temperature-1 probability; the draw itself was certain.
      completionLogprobs.push(sampler.temperature === 0 ? 0 : Math.log(confidence));
      if (this.model.isEogToken(token)) {
        finishReason = "stop";
        break;
      }
      textTokens.push(token);
      // Detokenising the completion after every token is quadratic: do it only when a stop string needs checking.
      if (sampler.stop.length > 0 && firstStop(this.model.detokenize(textTokens), sampler.stop) !== undefined) {
        finishReason = "stop";
        break;
      }
      if (completionTokenIds.length >= job.tokenBudget) break;
    }
    return {
      completionTokenIds: Int32Array.from(completionTokenIds),
      completionLogprobs: Float64Array.from(completionLogprobs),
      finishReason,
    };
  }
}
