import { InvalidInputError } from "../../../core/errors/index.js";
import { readLoraAdapter } from "../../../inference/model-files/read-lora-adapter.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "../../../inference/model-files/lora-adapter-format.js";
import { writeLoraAdapter, type LoraMatrixPair } from "../../../inference/model-files/write-lora-adapter.js";
import type { Policy } from "../policy/policy.js";
import { transpose } from "../sync/export-policy-model.js";

/**
 * Writes the policy's trained LoRA factors as an adapter GGUF the engine
 * serves over the same base (`swapWeights({ loraPath })`). The factors go back
 * from the trainer's compute layout to the file's: Aᵀ `[in, r]` → A row-major
 * `[r, in]`, Bᵀ `[r, out]` → B row-major `[out, r]`. Alpha and rank are the
 * loaded adapter's, so the engine applies the very factor alpha / r the
 * policy trains with.
 */
export async function exportLoraAdapter(policy: Policy, out: string): Promise<string> {
  if (policy.loraPath === undefined) {
    throw new InvalidInputError("policy.loraPath", "a policy loaded with a LoRA adapter (a full policy exports its weights with exportPolicyModel)");
  }
  const header = await readLoraAdapter(policy.loraPath);
  const ranks = new Set(header.tensors.map((tensor) => tensor.rank));
  if (ranks.size !== 1) {
    throw new InvalidInputError(`${policy.loraPath} ranks`, "one rank for every pair (the adapter writer takes a single rank)", [...ranks]);
  }
  const rank = [...ranks][0] as number;
  const tensors: Record<string, LoraMatrixPair> = {};
  for (const { baseName, inputLength, outputLength } of header.tensors) {
    const a = policy.variables.get(`${baseName}${LORA_A_SUFFIX}`);
    const b = policy.variables.get(`${baseName}${LORA_B_SUFFIX}`);
    if (!a || !b) throw new InvalidInputError("policy.variables", `the LoRA pair of ${baseName}`, "missing");
    tensors[baseName] = {
      a: transpose((await a.data()) as Float32Array, inputLength, rank),
      b: transpose((await b.data()) as Float32Array, rank, outputLength),
    };
  }
  await writeLoraAdapter(out, { base: policy.modelPath, alpha: header.alpha, rank, tensors });
  return out;
}
