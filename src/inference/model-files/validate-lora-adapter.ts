import { AdapterMismatchError } from "../errors/index.js";
import { LORA_ADAPTER_KEYS, LORA_A_SUFFIX, LORA_B_SUFFIX } from "./lora-adapter-format.js";
import { readLoraAdapter, type LoraAdapterHeader } from "./read-lora-adapter.js";
import { readLoraBase } from "./read-lora-base.js";

export interface ValidatedLoraAdapter extends LoraAdapterHeader {
  baseModelPath: string;
}

/**
 * Checks that a LoRA adapter file fits its base model before either reaches
 * llama.cpp, which may abort or silently misbehave otherwise: the base is a
 * valid model (`validateModelFile`), the adapter is well-formed
 * (`readLoraAdapter`), both have one architecture, and every pair names a
 * matrix of the base with lora_a's in = the matrix's in and lora_b's out = its
 * out. Throws GgufError subclasses, InvalidModelFileError (the base),
 * InvalidAdapterFileError (the adapter alone) or AdapterMismatchError.
 */
export async function validateLoraAdapter(adapterPath: string, baseModelPath: string): Promise<ValidatedLoraAdapter> {
  const base = await readLoraBase(baseModelPath);
  const adapter = await readLoraAdapter(adapterPath);
  const fail: (field: string, problem: string) => never = (field, problem) => {
    throw new AdapterMismatchError(adapterPath, baseModelPath, field, problem);
  };
  if (adapter.architecture !== base.architecture) {
    fail(LORA_ADAPTER_KEYS.architecture, `is "${adapter.architecture}" but the base model is "${base.architecture}"`);
  }
  for (const { baseName, inputLength, outputLength } of adapter.tensors) {
    const weight = base.weights.get(baseName);
    if (weight === undefined) {
      fail(`${baseName}${LORA_A_SUFFIX}`, `adapts "${baseName}", which is not a matrix of the base model (it has e.g. ${[...base.weights.keys()].slice(0, 3).join(", ")})`);
    }
    if (inputLength !== weight.inputLength) {
      fail(`${baseName}${LORA_A_SUFFIX}`, `has in = ${inputLength} (dims[0]) but ${baseName} has in = ${weight.inputLength}`);
    }
    if (outputLength !== weight.outputLength) {
      fail(`${baseName}${LORA_B_SUFFIX}`, `has out = ${outputLength} (dims[1]) but ${baseName} has out = ${weight.outputLength}`);
    }
  }
  return { ...adapter, baseModelPath };
}
