import { GgufReader } from "../../../gguf/gguf-reader.js";
import { loraFactor } from "../../../inference/model-files/add-lora-update.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "../../../inference/model-files/lora-adapter-format.js";
import { validateLoraAdapter } from "../../../inference/model-files/validate-lora-adapter.js";

/** One adapted matrix's LoRA pair, with the values the adapter file holds. */
export interface LoraFactorValues {
  /** The base matrix it adapts, e.g. `blk.0.attn_q.weight`. */
  baseName: string;
  inputLength: number;
  outputLength: number;
  rank: number;
  /** A, row-major `[rank, in]`. */
  a: Float32Array;
  /** B, row-major `[out, rank]`. */
  b: Float32Array;
  /** What B·A·x is multiplied by: alpha / rank in float32, as llama.cpp's `get_scale` with adapter scale 1. */
  factor: number;
}

/**
 * Reads a LoRA adapter's pairs after checking it against its base model
 * exactly as the engine's client does (`validateLoraAdapter`: its errors), so
 * the policy and the engine accept the same adapters.
 */
export async function readLoraFactors(adapterPath: string, baseModelPath: string): Promise<Map<string, LoraFactorValues>> {
  const adapter = await validateLoraAdapter(adapterPath, baseModelPath);
  const reader = await GgufReader.open(adapterPath);
  try {
    const pairs = new Map<string, LoraFactorValues>();
    for (const { baseName, inputLength, outputLength, rank } of adapter.tensors) {
      pairs.set(baseName, {
        baseName,
        inputLength,
        outputLength,
        rank,
        a: await reader.readTensor(`${baseName}${LORA_A_SUFFIX}`),
        b: await reader.readTensor(`${baseName}${LORA_B_SUFFIX}`),
        factor: loraFactor(1, adapter.alpha, rank),
      });
    }
    return pairs;
  } finally {
    await reader.close();
  }
}
