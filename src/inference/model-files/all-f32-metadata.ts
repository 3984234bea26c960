import type { GgufValue } from "../../gguf/gguf-value.js";

/** llama.cpp's `general.file_type` (`llama_ftype`) for a model whose tensors are all f32. */
const ALL_F32_FILE_TYPE = 0;

/** A model's metadata for a copy written all in f32: the file type says so and the quantisation version goes. */
export function allF32Metadata(metadata: ReadonlyMap<string, GgufValue>): Map<string, GgufValue> {
  const copy = new Map(metadata);
  copy.set("general.file_type", { type: "uint32", value: ALL_F32_FILE_TYPE });
  copy.delete("general.quantization_version");
  return copy;
}
