import { InvalidInputError } from "../../core/errors/index.js";
import { readLoraAdapter } from "../../inference/model-files/read-lora-adapter.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "../../inference/model-files/lora-adapter-format.js";
import { writeLoraAdapter, type LoraMatrixPair } from "../../inference/model-files/write-lora-adapter.js";
import type { GgmlPolicy } from "./ggml-policy.js";

/**
 * Writes the ggml policy's trained LoRA factors as an adapter GGUF the engine
 * serves over the same base. ggml holds the factors as the file lays them out
 * (A row-major [r, in], B row-major [out, r]), so they are written as read;
 * alpha and rank are the loaded adapter's.
 */
export async function exportGgmlAdapter(policy: GgmlPolicy, out: string): Promise<string> {
  if (policy.loraPath === undefined) {
    throw new InvalidInputError("policy.loraPath", "a policy loaded with a LoRA adapter (a full policy exports its weights with exportGgmlModel)");
  }
  const header = await readLoraAdapter(policy.loraPath);
  const rank = header.tensors[0]?.rank ?? 0;
  const tensors: Record<string, LoraMatrixPair> = {};
  for (const { baseName } of header.tensors) {
    tensors[baseName] = {
      a: policy.native.readTensor(`${baseName}${LORA_A_SUFFIX}`, "weight"),
      b: policy.native.readTensor(`${baseName}${LORA_B_SUFFIX}`, "weight"),
    };
  }
  await writeLoraAdapter(out, { base: policy.modelPath, alpha: header.alpha, rank, tensors });
  return out;
}
