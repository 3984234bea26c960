import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../../src/gguf/write-gguf.js";

/**
 * Copies a llama model and adds a `rope_freqs.weight` tensor, as Llama 3 files
 * have: pair i's rope angle is divided by `factors[i]`.
 */
export async function addRopeFrequencies(modelPath: string, outputPath: string, factors: Float32Array): Promise<void> {
  const reader = await GgufReader.open(modelPath);
  try {
    const tensors: GgufTensorInput[] = [{ name: "rope_freqs.weight", dims: [factors.length], type: "f32", values: factors }];
    for (const tensor of reader.tensors) {
      tensors.push({ name: tensor.name, dims: tensor.dims, type: tensor.type, bytes: await reader.readTensorBytes(tensor.name) });
    }
    await writeGguf(outputPath, { metadata: reader.metadata, tensors });
  } finally {
    await reader.close();
  }
}
