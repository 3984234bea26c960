import { GgmlType, type Llama, type LlamaModel } from "node-llama-cpp";

/** A context size and where it came from, as stderr says it. */
export interface ContextSizeChoice {
  /** Tokens of context each sequence gets (llama.cpp may round it up to a multiple of 256). */
  contextSize: number;
  reason: string;
}

/** The context of a file that records none (no `<architecture>.context_length`). */
const CONTEXT_WITHOUT_METADATA = 2048;

export interface ChooseContextSizeOptions {
  /** The caller's `contextSize`, taken as it is. */
  requested: number | undefined;
  sequences: number;
  mode: "exact" | "fast";
  /** Whether node-llama-cpp holds the weights already; the native loop loads them after, so their memory is set aside. */
  weightsLoaded: boolean;
}

/**
 * Tokens of context each sequence gets: `requested`, else the file's training
 * context (`context_length`), capped by node-llama-cpp's memory check —
 * `contextSize: {max}`, the largest context whose KV cache (f32 in exact mode)
 * and compute buffers for all `sequences` fit the free RAM, or VRAM on a GPU
 * build, beside the weights; swap is never counted. Every sequence has its own
 * context, so 16 sequences of SmolLM2's 8192 tokens hold ~6 GB of f32 cache:
 * a job that needs less passes `contextSize`.
 */
export async function chooseContextSize(llama: Llama, model: LlamaModel, options: ChooseContextSizeOptions): Promise<ContextSizeChoice> {
  if (options.requested !== undefined) return { contextSize: options.requested, reason: "from contextSize" };
  const insights = model.fileInsights;
  const trained = insights.trainContextSize;
  if (trained === undefined) return { contextSize: CONTEXT_WITHOUT_METADATA, reason: "default: the file records no context_length" };
  const gpuLayers = llama.gpu === false ? 0 : insights.totalLayers;
  const weights = options.weightsLoaded ? { cpuRam: 0, gpuVram: 0 } : await insights.estimateModelResourceRequirementsV2({ gpuLayers });
  const ram = await llama.getRamState();
  const free = Math.max(0, ram.free - weights.cpuRam);
  const exact = options.mode === "exact";
  const contextSize = await insights.configurationResolver.resolveContextContextSize(
    { max: trained },
    {
      modelGpuLayers: gpuLayers,
      modelTrainContextSize: trained,
      sequences: options.sequences,
      ...(exact && { flashAttention: false, kvCacheKeyType: GgmlType.F32, kvCacheValueType: GgmlType.F32 }),
      getRamState: async () => ({ total: ram.total, free }),
      getVramState: async () => {
        const vram = await llama.getVramState();
        return { total: vram.total, free: Math.max(0, vram.free - weights.gpuVram), unifiedSize: vram.unifiedSize };
      },
      getSwapState: async () => ({ total: 0, free: 0 }),
    },
  );
  if (contextSize >= trained) return { contextSize: trained, reason: "the file's context_length" };
  const where = gpuLayers === 0 ? `${(free / 2 ** 30).toFixed(1)} GiB of RAM free` : "the GPU's free memory";
  return { contextSize, reason: `the file's context_length ${trained}, capped by the memory check for ${options.sequences} sequence(s): ${where}` };
}
