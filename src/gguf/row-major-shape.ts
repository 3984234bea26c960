/**
 * GGUF (like ggml) lists a tensor's dimensions innermost first: the weight of a
 * linear layer that is row-major `[out, in]` in PyTorch is stored with dims
 * `[in, out]`. These two helpers convert between the orders, so code that
 * thinks in row-major shapes never reverses by hand.
 */
export function dimsFromRowMajorShape(shape: readonly number[]): number[] {
  return [...shape].reverse();
}

/** The row-major shape (outermost first) of a tensor whose GGUF dims are `dims`. */
export function rowMajorShapeFromDims(dims: readonly number[]): number[] {
  return [...dims].reverse();
}
