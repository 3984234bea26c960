import { open } from "node:fs/promises";
import { InvalidInputError } from "../../core/errors/index.js";

/** One float32 tensor of a safetensors file. */
export interface SafetensorsTensor {
  /** Unique in the file; "__metadata__" is reserved. */
  name: string;
  /** Row-major shape, outermost first (PyTorch's `tensor.shape`). */
  shape: readonly number[];
  /** The values in row-major order, or a function giving them when the tensor is written (one tensor in memory at a time). */
  values: Float32Array | (() => Float32Array | Promise<Float32Array>);
}

export interface WriteSafetensorsOptions {
  /** Tensors, laid out in this order. */
  tensors: readonly SafetensorsTensor[];
  /** The header's `__metadata__` (string to string), e.g. `{ format: "pt" }`, which transformers checks. */
  metadata?: Readonly<Record<string, string>>;
}

const F32_BYTES = 4;
const HEADER_ALIGNMENT = 8;

/**
 * Writes a safetensors file (huggingface/safetensors' format): an unsigned
 * 64-bit little-endian header length N, N bytes of UTF-8 JSON
 * `{name: {dtype, shape, data_offsets: [begin, end]}}` (offsets relative to
 * the data, end exclusive; padded with spaces so the data starts on 8 bytes,
 * as the reference writer does), then each tensor's little-endian bytes back
 * to back. Every tensor is written as `F32`. Writes `path` in place: callers
 * that need an all-or-nothing file write it in a temporary folder.
 */
export async function writeSafetensors(path: string, options: WriteSafetensorsOptions): Promise<void> {
  const header: Record<string, unknown> = {};
  if (options.metadata !== undefined) header["__metadata__"] = options.metadata;
  let offset = 0;
  for (const [index, { name, shape }] of options.tensors.entries()) {
    if (name === "__metadata__" || Object.hasOwn(header, name)) throw new InvalidInputError(`tensors[${index}].name`, "a unique name other than __metadata__", name);
    if (shape.some((size) => !Number.isSafeInteger(size) || size < 0)) throw new InvalidInputError(`tensors[${index}].shape`, "non-negative integers", shape);
    const bytes = shape.reduce((product, size) => product * size, 1) * F32_BYTES;
    header[name] = { dtype: "F32", shape: [...shape], data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const padded = Buffer.alloc(Math.ceil(json.length / HEADER_ALIGNMENT) * HEADER_ALIGNMENT, " ");
  json.copy(padded);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(padded.length));

  const handle = await open(path, "w");
  try {
    await handle.write(length);
    await handle.write(padded);
    for (const [index, tensor] of options.tensors.entries()) {
      const values = typeof tensor.values === "function" ? await tensor.values() : tensor.values;
      const expected = tensor.shape.reduce((product, size) => product * size, 1);
      if (values.length !== expected) throw new InvalidInputError(`tensors[${index}].values.length`, `${expected} (shape [${tensor.shape.join(", ")}])`, values.length);
      await handle.write(littleEndianBytes(values));
    }
  } finally {
    await handle.close();
  }
}

function littleEndianBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * F32_BYTES);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < values.length; index++) view.setFloat32(index * F32_BYTES, values[index] as number, true);
  return bytes;
}
