import { GgufReader } from "../../gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../gguf/write-gguf.js";
import { allF32Metadata } from "../../inference/model-files/all-f32-metadata.js";
import type { GgmlPolicy } from "./ggml-policy.js";

/**
 * Writes the ggml policy's current weights as a full f32 GGUF llama.cpp
 * loads: the base file's metadata and tensor list, each tensor read from the
 * policy (ggml holds them as GGUF lays them out, so nothing is transposed).
 * writeGguf writes a temporary sibling and renames it.
 */
export async function exportGgmlModel(policy: GgmlPolicy, out: string): Promise<string> {
  const base = await GgufReader.open(policy.modelPath);
  try {
    const tensors: GgufTensorInput[] = base.tensors.map(({ name, dims }) => ({
      name,
      dims,
      type: "f32",
      values: () => policy.native.readTensor(name, "weight"),
    }));
    await writeGguf(out, { metadata: allF32Metadata(base.metadata), tensors });
    return out;
  } finally {
    await base.close();
  }
}
