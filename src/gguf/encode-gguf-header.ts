import { InvalidInputError } from "../core/errors/index.js";
import { GGML_TYPES, type GgmlTypeName } from "./ggml-type.js";
import { GGUF_MAGIC, GGUF_VERSION } from "./gguf-format.js";
import { GGUF_VALUE_TYPE_IDS, type GgufArrayValue, type GgufValue, type GgufValueTypeName } from "./gguf-value.js";

/** A tensor as the header describes it: the writer has already placed its data. */
export interface GgufHeaderTensor {
  name: string;
  dims: readonly number[];
  type: GgmlTypeName;
  /** Offset of the tensor's data from the start of the data section; a multiple of the alignment. */
  relativeOffset: number;
}


const INTEGER_RANGES: Partial<Record<GgufValueTypeName, [number, number]>> = {
  uint8: [0, 0xff],
  int8: [-0x80, 0x7f],
  uint16: [0, 0xffff],
  int16: [-0x8000, 0x7fff],
  uint32: [0, 0xffff_ffff],
  int32: [-0x8000_0000, 0x7fff_ffff],
};

/** The bytes of a GGUF v3 header, up to (not including) the padding before the tensor data. */
export function encodeGgufHeader(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufHeaderTensor[]): Uint8Array {
  const writer = new ByteWriter();
  writer.bytes(GGUF_MAGIC);
  writer.uint32(GGUF_VERSION);
  writer.uint64(BigInt(tensors.length));
  writer.uint64(BigInt(metadata.size));
  for (const [key, value] of metadata) {
    checkValueType(value.type, `metadata.${key}.type`);
    writer.string(key);
    writer.uint32(GGUF_VALUE_TYPE_IDS[value.type]);
    writeValue(writer, value, `metadata.${key}`);
  }
  for (const tensor of tensors) {
    writer.string(tensor.name);
    writer.uint32(tensor.dims.length);
    for (const size of tensor.dims) writer.uint64(BigInt(size));
    writer.uint32(GGML_TYPES[tensor.type].id);
    writer.uint64(BigInt(tensor.relativeOffset));
  }
  return writer.result();
}

// Types come from callers' data at run time, so an unknown name must fail here, not write a corrupt file.
function checkValueType(type: string, field: string): void {
  if (!Object.hasOwn(GGUF_VALUE_TYPE_IDS, type)) {
    throw new InvalidInputError(field, `a GGUF value type (${Object.keys(GGUF_VALUE_TYPE_IDS).join(", ")})`, type);
  }
}

function writeValue(writer: ByteWriter, value: GgufValue, field: string): void {
  if (value.type === "array") {
    writeArray(writer, value, field);
    return;
  }
  writeScalar(writer, value.type, value.value, field);
}

function writeArray(writer: ByteWriter, array: GgufArrayValue, field: string): void {
  if (!Array.isArray(array.value)) throw new InvalidInputError(field, "an array value", array.value);
  checkValueType(array.itemType, `${field}.itemType`);
  writer.uint32(GGUF_VALUE_TYPE_IDS[array.itemType]);
  writer.uint64(BigInt(array.value.length));
  array.value.forEach((item: unknown, index: number) => {
    const itemField = `${field}[${index}]`;
    if (array.itemType === "array") {
      const nested = item as GgufArrayValue;
      if (typeof nested !== "object" || nested === null || nested.type !== "array") {
        throw new InvalidInputError(itemField, "a nested array value ({ type: \"array\", itemType, value })", item);
      }
      writeArray(writer, nested, itemField);
    } else {
      writeScalar(writer, array.itemType, item, itemField);
    }
  });
}

function writeScalar(writer: ByteWriter, type: Exclude<GgufValueTypeName, "array">, value: unknown, field: string): void {
  switch (type) {
    case "uint8":
    case "int8":
    case "uint16":
    case "int16":
    case "uint32":
    case "int32": {
      const [minimum, maximum] = INTEGER_RANGES[type] as [number, number];
      if (typeof value !== "number" || !Number.isInteger(value) || value < minimum || value > maximum) {
        throw new InvalidInputError(field, `a ${type} (an integer from ${minimum} to ${maximum})`, value);
      }
      writer.integer(type, value);
      return;
    }
    case "float32":
    case "float64":
      if (typeof value !== "number") throw new InvalidInputError(field, `a number (${type})`, value);
      if (type === "float32") writer.float32(value);
      else writer.float64(value);
      return;
    case "uint64":
    case "int64": {
      const [minimum, maximum] = type === "uint64" ? [0n, 2n ** 64n - 1n] : [-(2n ** 63n), 2n ** 63n - 1n];
      if (typeof value !== "bigint" || value < minimum || value > maximum) {
        throw new InvalidInputError(field, `a ${type} bigint from ${minimum} to ${maximum}`, typeof value === "bigint" ? String(value) : value);
      }
      if (type === "uint64") writer.uint64(value);
      else writer.int64(value);
      return;
    }
    case "bool":
      if (typeof value !== "boolean") throw new InvalidInputError(field, "a boolean", value);
      writer.integer("uint8", value ? 1 : 0);
      return;
    case "string":
      if (typeof value !== "string") throw new InvalidInputError(field, "a string", value);
      writer.string(value);
      return;
  }
}

/** Little-endian bytes appended to a buffer that doubles as it fills. */
class ByteWriter {
  // A Buffer, because Buffer#write encodes short UTF-8 strings faster than TextEncoder.
  private buffer = Buffer.alloc(1 << 16);
  private view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
  private length = 0;

  /**
   * Offset of `byteCount` new bytes. Callers must call it before touching
   * `buffer` or `view`, which it may replace (`this.view.set…(this.reserve(8))`
   * would write into the old view).
   */
  private reserve(byteCount: number): number {
    if (this.length + byteCount > this.buffer.byteLength) {
      const grown = Buffer.alloc(Math.max(this.buffer.byteLength * 2, this.length + byteCount));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
      this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
    }
    const offset = this.length;
    this.length += byteCount;
    return offset;
  }

  bytes(bytes: Uint8Array): void {
    const offset = this.reserve(bytes.byteLength);
    this.buffer.set(bytes, offset);
  }
  integer(type: "uint8" | "int8" | "uint16" | "int16" | "uint32" | "int32", value: number): void {
    const size = type === "uint8" || type === "int8" ? 1 : type === "uint16" || type === "int16" ? 2 : 4;
    const offset = this.reserve(size);
    switch (type) {
      case "uint8": return this.view.setUint8(offset, value);
      case "int8": return this.view.setInt8(offset, value);
      case "uint16": return this.view.setUint16(offset, value, true);
      case "int16": return this.view.setInt16(offset, value, true);
      case "uint32": return this.view.setUint32(offset, value, true);
      case "int32": return this.view.setInt32(offset, value, true);
    }
  }
  uint32(value: number): void {
    this.integer("uint32", value);
  }
  uint64(value: bigint): void {
    const offset = this.reserve(8);
    this.view.setBigUint64(offset, value, true);
  }
  int64(value: bigint): void {
    const offset = this.reserve(8);
    this.view.setBigInt64(offset, value, true);
  }
  float32(value: number): void {
    const offset = this.reserve(4);
    this.view.setFloat32(offset, value, true);
  }
  float64(value: number): void {
    const offset = this.reserve(8);
    this.view.setFloat64(offset, value, true);
  }
  string(value: string): void {
    const byteLength = Buffer.byteLength(value, "utf8");
    this.uint64(BigInt(byteLength));
    const offset = this.reserve(byteLength);
    this.buffer.write(value, offset, byteLength, "utf8");
  }
  result(): Uint8Array {
    return new Uint8Array(this.buffer.subarray(0, this.length));
  }
}
