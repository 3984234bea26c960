/** The "GGUF" magic: the first four bytes of every GGUF file. */
export const GGUF_MAGIC = new Uint8Array([0x47, 0x47, 0x55, 0x46]);
/** The version the writer produces; the reader also reads version 2, which has the same layout. */
export const GGUF_VERSION = 3;
/** Alignment of tensor data when a file sets no `general.alignment`. */
export const GGUF_DEFAULT_ALIGNMENT = 32;
/** ggml tensors have at most four dimensions (GGML_MAX_DIMS). */
export const GGUF_MAXIMUM_DIMENSIONS = 4;
/** Longest tensor name ggml accepts, in UTF-8 bytes (GGML_MAX_NAME − 1 for the terminating zero). */
export const GGUF_MAXIMUM_TENSOR_NAME_BYTES = 63;

/** `offset` rounded up to a multiple of `alignment`. */
export function alignUp(offset: number, alignment: number): number {
  return Math.ceil(offset / alignment) * alignment;
}
