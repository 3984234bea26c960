import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../gguf/write-gguf.js";
import { addLoraUpdate, loraFactor } from "./add-lora-update.js";
import { LORA_A_SUFFIX, LORA_B_SUFFIX } from "./lora-adapter-format.js";
import { validateLoraAdapter } from "./validate-lora-adapter.js";
import { allF32Metadata } from "./all-f32-metadata.js";

export const MergeLoraAdapterOptionsSchema = z.strictObject({
  /** The model the adapter was made for. */
  baseModelPath: z.string().min(1),
  adapterPath: z.string().min(1),
  /** Multiplies the update, like node-llama-cpp's `lora.adapters[].scale`. Any finite number; default 1. */
  scale: z.number().finite().default(1),
  /** Where to write the merged model; written to a temporary sibling, then renamed. */
  out: z.string().min(1),
});
export type MergeLoraAdapterOptions = z.input<typeof MergeLoraAdapterOptionsSchema>;

export interface MergedModel {
  path: string;
  /** The base matrices that changed, in file order. */
  adaptedTensors: string[];
}

/**
 * Folds a LoRA adapter into its base model: writes a full-f32 copy of the base
 * in which every adapted matrix is W + scale · (alpha / rank) · B · A, and all
 * other tensors (dequantised) and metadata are unchanged but for
 * `general.file_type`. This is what llama.cpp computes when the adapter is
 * applied at inference with that scale, so the merged model is the reference
 * adapter inference is tested against. Both files are validated first
 * (`validateLoraAdapter`); tensors are processed one at a time.
 */
export async function mergeLoraAdapter(options: MergeLoraAdapterOptions): Promise<MergedModel> {
  const { baseModelPath, adapterPath, scale, out } = parseInput(MergeLoraAdapterOptionsSchema, options);
  const adapter = await validateLoraAdapter(adapterPath, baseModelPath);
  const updates = new Map(adapter.tensors.map((tensor) => [tensor.baseName, tensor]));
  const base = await GgufReader.open(baseModelPath);
  try {
    const adapterReader = await GgufReader.open(adapterPath);
    try {
      const metadata = allF32Metadata(base.metadata);
      const tensors: GgufTensorInput[] = base.tensors.map(({ name, dims }) => ({
        name,
        dims,
        type: "f32",
        values: async () => {
          const weight = await base.readTensor(name);
          const update = updates.get(name);
          if (update !== undefined) {
            const a = await adapterReader.readTensor(`${name}${LORA_A_SUFFIX}`);
            const b = await adapterReader.readTensor(`${name}${LORA_B_SUFFIX}`);
            addLoraUpdate(weight, a, b, update, loraFactor(scale, adapter.alpha, update.rank));
          }
          return weight;
        },
      }));
      await writeGguf(out, { metadata, tensors });
    } finally {
      await adapterReader.close();
    }
  } finally {
    await base.close();
  }
  return { path: out, adaptedTensors: base.tensors.map(({ name }) => name).filter((name) => updates.has(name)) };
}
