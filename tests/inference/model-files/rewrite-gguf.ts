import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import type { GgufValue } from "../../../src/gguf/gguf-value.js";
import { writeGguf, type GgufBytesTensorInput } from "../../../src/gguf/write-gguf.js";

/** Copies a GGUF file to `target`, letting `edit` change its metadata and tensors on the way. */
export async function rewriteGguf(
  source: string,
  target: string,
  edit: (metadata: Map<string, GgufValue>, tensors: GgufBytesTensorInput[]) => GgufBytesTensorInput[] | void,
): Promise<string> {
  const reader = await GgufReader.open(source);
  try {
    const metadata = new Map(reader.metadata);
    let tensors: GgufBytesTensorInput[] = [];
    for (const tensor of reader.tensors) {
      tensors.push({ name: tensor.name, dims: tensor.dims, type: tensor.type, bytes: await reader.readTensorBytes(tensor.name) });
    }
    tensors = edit(metadata, tensors) ?? tensors;
    await writeGguf(target, { metadata, tensors });
    return target;
  } finally {
    await reader.close();
  }
}
