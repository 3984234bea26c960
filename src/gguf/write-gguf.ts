import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { InvalidInputError } from "../core/errors/index.js";
import { encodeGgufHeader, type GgufHeaderTensor } from "./encode-gguf-header.js";
import { GGUF_WRITABLE_TYPES, encodeTensorData, type GgufWritableType } from "./encode-tensor-data.js";
import { GGML_TYPES, ggmlByteLength, type GgmlTypeName } from "./ggml-type.js";
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAXIMUM_DIMENSIONS, GGUF_MAXIMUM_TENSOR_NAME_BYTES, alignUp } from "./gguf-format.js";
import type { GgufValue } from "./gguf-value.js";

/** A tensor to encode from float32 values. */
export interface GgufValuesTensorInput {
  /** At most 63 UTF-8 bytes, unique in the file. */
  name: string;
  /**
   * Dimensions innermost first, exactly as GGUF stores them: a row-major
   * `[out, in]` weight is `[in, out]`. Build them with `dimsFromRowMajorShape`.
   */
  dims: readonly number[];
  /** Storage type; q8_0 needs `dims[0]` to be a multiple of 32. */
  type: GgufWritableType;
  /**
   * The values in row-major order (innermost dimension fastest), or a function
   * that produces them when the tensor is written, so that only one tensor's
   * values need be in memory at a time.
   */
  values: Float32Array | (() => Float32Array | Promise<Float32Array>);
}

/** A tensor whose stored bytes are already encoded, e.g. copied from another GGUF file. */
export interface GgufBytesTensorInput {
  name: string;
  /** Dimensions innermost first, as GGUF stores them. */
  dims: readonly number[];
  type: GgmlTypeName;
  bytes: Uint8Array;
}

export type GgufTensorInput = GgufValuesTensorInput | GgufBytesTensorInput;

export interface WriteGgufOptions {
  /** Metadata entries, written in this order. */
  metadata: ReadonlyMap<string, GgufValue> | Readonly<Record<string, GgufValue>>;
  /** Tensors, written in this order. */
  tensors: readonly GgufTensorInput[];
  /**
   * Alignment of tensor data in bytes: a power of two. Defaults to the
   * metadata's `general.alignment`, else 32; a value other than 32 is recorded
   * as `general.alignment`.
   */
  alignment?: number;
}

const utf8 = new TextEncoder();

/**
 * Writes a GGUF v3 file. Tensors are encoded and written one at a time into a
 * temporary sibling file, which is then renamed over `path`: readers see the
 * old file or the complete new one, never a torn one.
 */
export async function writeGguf(path: string, options: WriteGgufOptions): Promise<void> {
  const metadata = new Map(options.metadata instanceof Map ? options.metadata : Object.entries(options.metadata));
  const alignment = resolveAlignment(metadata, options.alignment);
  const headerTensors: GgufHeaderTensor[] = [];
  const names = new Set<string>();
  let relativeOffset = 0;
  for (const [index, tensor] of options.tensors.entries()) {
    checkTensor(tensor, index, names);
    headerTensors.push({ name: tensor.name, dims: tensor.dims, type: tensor.type, relativeOffset });
    relativeOffset = alignUp(relativeOffset + ggmlByteLength(tensor.type, elementCountOf(tensor.dims)), alignment);
  }
  const header = encodeGgufHeader(metadata, headerTensors);

  const temporaryPath = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await open(temporaryPath, "w");
  try {
    let position = 0;
    const write = async (bytes: Uint8Array): Promise<void> => {
      let written = 0;
      while (written < bytes.byteLength) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.byteLength - written, position + written);
        written += bytesWritten;
      }
      position += bytes.byteLength;
    };
    const padTo = (target: number): Promise<void> => write(new Uint8Array(target - position));

    await write(header);
    const dataOffset = alignUp(position, alignment);
    await padTo(dataOffset);
    for (const [index, tensor] of options.tensors.entries()) {
      await write(await encodeTensor(tensor, index));
      await padTo(alignUp(position - dataOffset, alignment) + dataOffset);
    }
    await handle.close();
    await rename(temporaryPath, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
}

function resolveAlignment(metadata: Map<string, GgufValue>, requested: number | undefined): number {
  const recorded = metadata.get("general.alignment");
  if (recorded !== undefined && recorded.type !== "uint32") {
    throw new InvalidInputError("metadata.general.alignment", "a uint32 value", recorded.type);
  }
  const alignment = requested ?? (recorded?.value as number | undefined) ?? GGUF_DEFAULT_ALIGNMENT;
  if (!Number.isInteger(alignment) || alignment <= 0 || alignment > 0xffff_ffff || (alignment & (alignment - 1)) !== 0) {
    throw new InvalidInputError("alignment", "a power of two", alignment);
  }
  if (recorded !== undefined && recorded.value !== alignment) {
    throw new InvalidInputError("alignment", `the metadata's general.alignment (${String(recorded.value)}) or no alignment option`, alignment);
  }
  if (recorded === undefined && alignment !== GGUF_DEFAULT_ALIGNMENT) metadata.set("general.alignment", { type: "uint32", value: alignment });
  return alignment;
}

function checkTensor(tensor: GgufTensorInput, index: number, names: Set<string>): void {
  const field = `tensors[${index}]`;
  const nameBytes = utf8.encode(tensor.name).byteLength;
  if (nameBytes === 0 || nameBytes > GGUF_MAXIMUM_TENSOR_NAME_BYTES) {
    throw new InvalidInputError(`${field}.name`, `1 to ${GGUF_MAXIMUM_TENSOR_NAME_BYTES} UTF-8 bytes`, tensor.name);
  }
  if (names.has(tensor.name)) throw new InvalidInputError(`${field}.name`, "a name no other tensor has", tensor.name);
  names.add(tensor.name);
  if (tensor.dims.length === 0 || tensor.dims.length > GGUF_MAXIMUM_DIMENSIONS || !tensor.dims.every((size) => Number.isSafeInteger(size) && size >= 1)) {
    throw new InvalidInputError(`${field}.dims`, `1 to ${GGUF_MAXIMUM_DIMENSIONS} positive integers, innermost first`, tensor.dims);
  }
  if (!(tensor.type in GGML_TYPES)) throw new InvalidInputError(`${field}.type`, "a ggml type name", tensor.type);
  if ("values" in tensor && !(GGUF_WRITABLE_TYPES as readonly string[]).includes(tensor.type)) {
    throw new InvalidInputError(`${field}.type`, `one of ${GGUF_WRITABLE_TYPES.join(", ")} (or pass encoded bytes)`, tensor.type);
  }
  const blockSize = GGML_TYPES[tensor.type].blockSize;
  if ((tensor.dims[0] as number) % blockSize !== 0) {
    throw new InvalidInputError(`${field}.dims[0]`, `a multiple of ${tensor.type}'s block size ${blockSize} (rows are quantised in whole blocks)`, tensor.dims[0]);
  }
  if ("bytes" in tensor) {
    const expected = ggmlByteLength(tensor.type, elementCountOf(tensor.dims));
    if (tensor.bytes.byteLength !== expected) {
      throw new InvalidInputError(`${field}.bytes.byteLength`, `${expected} bytes for dims [${tensor.dims.join(", ")}] of ${tensor.type}`, tensor.bytes.byteLength);
    }
  } else if (tensor.values instanceof Float32Array) {
    checkValues(tensor.values, tensor.dims, field);
  }
}

async function encodeTensor(tensor: GgufTensorInput, index: number): Promise<Uint8Array> {
  if ("bytes" in tensor) return tensor.bytes;
  const values = typeof tensor.values === "function" ? await tensor.values() : tensor.values;
  checkValues(values, tensor.dims, `tensors[${index}]`);
  return encodeTensorData(tensor.type, values);
}

function checkValues(values: unknown, dims: readonly number[], field: string): void {
  if (!(values instanceof Float32Array)) throw new InvalidInputError(`${field}.values`, "a Float32Array", typeof values);
  const expected = elementCountOf(dims);
  if (values.length !== expected) {
    throw new InvalidInputError(`${field}.values.length`, `${expected} (the product of dims [${dims.join(", ")}])`, values.length);
  }
  const badIndex = values.findIndex((value) => !Number.isFinite(value));
  if (badIndex !== -1) throw new InvalidInputError(`${field}.values[${badIndex}]`, "a finite number", values[badIndex]);
}

function elementCountOf(dims: readonly number[]): number {
  return dims.reduce((product, size) => product * size, 1);
}
