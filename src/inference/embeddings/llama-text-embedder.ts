import type { LlamaEmbeddingContext, LlamaModel, Token } from "node-llama-cpp";
import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import { DeviceSchema } from "../device/device-option.js";
import { loadLlama } from "../llama/load-llama.js";
import { nodeLlamaCppDevice } from "../llama/node-llama-cpp-device.js";
import { validateModelFile } from "../model-files/validate-model-file.js";

export const LlamaTextEmbedderOptionsSchema = z.strictObject({
  /** The GGUF model whose embeddings to take (normally the policy model). */
  modelPath: z.string().min(1, "a GGUF file path"),
  /** Tokens the embedding context holds; longer texts keep their head and tail. Default 512. */
  contextSize: z.number().int().min(16).default(512),
  /**
   * CPU threads llama.cpp evaluates with. Default 1: llama.cpp's worker
   * threads spin while they wait, and on a busy 2-core machine 2 threads
   * embedded a short text ~25× slower than 1 (300 ms against 12 ms, tiny model).
   */
  threads: z.number().int().min(1).default(1),
  /** Where the model runs: "auto" (default: the first GPU, else the CPU), "cpu", "cuda[:N]", "vulkan[:N]". */
  device: DeviceSchema.default("auto"),
});
export type LlamaTextEmbedderOptions = z.input<typeof LlamaTextEmbedderOptionsSchema>;

/**
 * Text embeddings from a GGUF model through node-llama-cpp's embedding
 * context: one vector of the model's embedding width per text, as llama.cpp
 * pools it for that model.
 */
export class LlamaTextEmbedder {
  private constructor(
    readonly modelPath: string,
    private readonly model: LlamaModel,
    private readonly context: LlamaEmbeddingContext,
    private readonly contextSize: number,
  ) {}

  static async create(options: LlamaTextEmbedderOptions): Promise<LlamaTextEmbedder> {
    const { modelPath, contextSize, threads, device } = parseInput(LlamaTextEmbedderOptionsSchema, options);
    // llama.cpp aborts the process on some malformed files; this raises a named error first.
    await validateModelFile(modelPath);
    const llama = await loadLlama(device);
    const placed = await nodeLlamaCppDevice(llama, device);
    const model = await llama.loadModel({ modelPath, gpuLayers: placed.cpu ? 0 : "max" });
    try {
      const context = await model.createEmbeddingContext({ contextSize, threads });
      return new LlamaTextEmbedder(modelPath, model, context, contextSize);
    } catch (error) {
      await model.dispose();
      throw error;
    }
  }

  /** Width of every embedding. */
  get dimensions(): number {
    return this.model.embeddingVectorSize;
  }

  /** One embedding per text, in order; the empty text embeds as zeros. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const embeddings: Float32Array[] = [];
    for (const text of texts) {
      const embedding = await this.context.getEmbeddingFor(this.fitToContext(this.model.tokenize(text)));
      embeddings.push(embedding.vector.length === 0 ? new Float32Array(this.dimensions) : Float32Array.from(embedding.vector));
    }
    return embeddings;
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
  }

  /**
   * Tokens that fit the context with room for the begin and end tokens the
   * context adds: a long text keeps its head (the task) and its tail (the
   * latest part of the solution), dropping the middle.
   */
  private fitToContext(tokens: Token[]): Token[] {
    const room = this.contextSize - 4;
    if (tokens.length <= room) return tokens;
    const head = Math.floor(room / 2);
    return [...tokens.slice(0, head), ...tokens.slice(tokens.length - (room - head))];
  }
}
