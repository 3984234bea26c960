import { GgufReader } from "../../../gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../../gguf/write-gguf.js";
import type { Policy } from "../policy/policy.js";
import { allF32Metadata } from "../../../inference/model-files/all-f32-metadata.js";

/**
 * Writes the policy's current weights as a full f32 GGUF that llama.cpp (and
 * so the inference client) loads: the base file's metadata and tensor list,
 * each tensor from the policy's variable of the same name (linear weights
 * transposed back from the trainer's `[in, out]` to GGUF's row-major
 * `[out, in]`), tensors the policy does not hold (`rope_freqs`) copied.
 * Written to a temporary sibling, then renamed: a reader never sees half a file.
 */
export async function exportPolicyModel(policy: Policy, out: string): Promise<string> {
  if (policy.loraPath !== undefined) throw new Error("exportPolicyModel: a policy with a LoRA adapter exports the adapter (exportLoraAdapter)");
  const base = await GgufReader.open(policy.modelPath);
  try {
    const metadata = allF32Metadata(base.metadata);
    const tensors: GgufTensorInput[] = base.tensors.map(({ name, dims }) => ({
      name,
      dims,
      type: "f32",
      values: async () => {
        const variable = policy.variables.get(name);
        if (!variable) return base.readTensor(name);
        const values = (await variable.data()) as Float32Array;
        // Linear weights live transposed in the trainer; vectors and the embedding table as GGUF stores them.
        return variable.shape.length === 2 && name !== "token_embd.weight" ? transpose(values, variable.shape[0] as number, variable.shape[1] as number) : values;
      },
    }));
    await writeGguf(out, { metadata, tensors });
    return out;
  } finally {
    await base.close();
  }
}

/** The transpose of a row-major `[rows, columns]` matrix. */
export function transpose(values: Float32Array, rows: number, columns: number): Float32Array {
  const transposed = new Float32Array(values.length);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) transposed[column * rows + row] = values[row * columns + column] as number;
  }
  return transposed;
}
