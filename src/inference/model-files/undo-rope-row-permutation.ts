import { InvalidInputError } from "../../core/errors/index.js";

/**
 * The inverse of llama.cpp's `LlamaModel.permute` (convert_hf_to_gguf.py),
 * which reorders the rows of a Hugging Face llama's q_proj and k_proj (and of
 * a LoRA's lora_B for them) from rotate-half rope order into the interleaved
 * order of llama.cpp's `LLAMA_ROPE_TYPE_NORM`:
 * `w.reshape(heads, 2, width / 2, columns).swapaxes(1, 2).reshape(w.shape)`.
 * So GGUF row `h·width + 2i + t` is Hugging Face row `h·width + t·width/2 + i`;
 * this returns the rows in Hugging Face order. `values` is row-major
 * `[rows, columns]`, rows = heads × an even head width.
 */
export function undoRopeRowPermutation(values: Float32Array, rows: number, columns: number, headCount: number): Float32Array {
  if (values.length !== rows * columns) throw new InvalidInputError("values.length", `${rows * columns} (row-major [${rows}, ${columns}])`, values.length);
  const headWidth = rows / headCount;
  if (!Number.isInteger(headWidth) || headWidth % 2 !== 0) {
    throw new InvalidInputError("headCount", `a count that splits ${rows} rows into heads of an even width (rope pairs)`, headCount);
  }
  const half = headWidth / 2;
  const result = new Float32Array(values.length);
  for (let head = 0; head < headCount; head++) {
    for (let pair = 0; pair < half; pair++) {
      for (let part = 0; part < 2; part++) {
        const ggufRow = head * headWidth + 2 * pair + part;
        const huggingFaceRow = head * headWidth + part * half + pair;
        result.set(values.subarray(ggufRow * columns, (ggufRow + 1) * columns), huggingFaceRow * columns);
      }
    }
  }
  return result;
}
