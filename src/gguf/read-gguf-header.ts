import type { FileHandle } from "node:fs/promises";
import {
  CorruptGgufError,
  NotGgufError,
  TruncatedGgufError,
  UnsupportedGgufVersionError,
  UnsupportedTensorTypeError,
} from "./errors/index.js";
import { GGML_TYPES, ggmlByteLength, ggmlTypeNameOf, type GgmlTypeName } from "./ggml-type.js";
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GGUF_MAXIMUM_DIMENSIONS, alignUp } from "./gguf-format.js";
import { GgufHeaderCursor } from "./gguf-header-cursor.js";
import type { GgufTensorInfo } from "./gguf-tensor-info.js";
import { GGUF_VALUE_TYPE_IDS, type GgufArrayValue, type GgufValue, type GgufValueTypeName } from "./gguf-value.js";

/** Everything before the tensor data. */
export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: GgufTensorInfo[];
  /** Alignment of tensor data: `general.alignment`, else 32. */
  alignment: number;
  /** Absolute offset where tensor data begins; tensor offsets in the file are relative to it. */
  dataOffset: number;
}

const TYPE_NAMES_BY_ID = new Map<number, GgufValueTypeName>(
  (Object.keys(GGUF_VALUE_TYPE_IDS) as GgufValueTypeName[]).map((name) => [GGUF_VALUE_TYPE_IDS[name], name]),
);

/**
 * Parses the header of the GGUF file open as `handle` (versions 2 and 3,
 * little-endian), and checks that every tensor's data lies inside the file.
 */
export async function readGgufHeader(handle: FileHandle, path: string, fileSize: number): Promise<GgufHeader> {
  const cursor = new GgufHeaderCursor(handle, path, fileSize);
  await readMagic(cursor, path, fileSize);
  const version = await cursor.uint32("the GGUF version");
  if (version !== 2 && version !== 3) throw new UnsupportedGgufVersionError(path, version);
  const tensorCount = await readCount(cursor, path, "the tensor count", 8);
  const metadataCount = await readCount(cursor, path, "the metadata count", 8 + 4);

  const metadata = new Map<string, GgufValue>();
  for (let index = 0; index < metadataCount; index++) {
    const key = await cursor.string(`the key of metadata entry ${index}`);
    if (metadata.has(key)) throw new CorruptGgufError(path, `metadata key "${key}" appears twice`);
    const typeId = await cursor.uint32(`the type of metadata "${key}"`);
    metadata.set(key, await readValue(cursor, path, typeId, `metadata "${key}"`, 0));
  }
  const alignment = readAlignment(metadata, path);

  const rawTensors: { name: string; type: GgmlTypeName; dims: number[]; elementCount: number; relativeOffset: number }[] = [];
  const names = new Set<string>();
  for (let index = 0; index < tensorCount; index++) {
    const name = await cursor.string(`the name of tensor ${index}`);
    if (names.has(name)) throw new CorruptGgufError(path, `tensor "${name}" appears twice`);
    names.add(name);
    const dimensionCount = await cursor.uint32(`the dimension count of tensor "${name}"`);
    if (dimensionCount > GGUF_MAXIMUM_DIMENSIONS) {
      throw new CorruptGgufError(path, `tensor "${name}" has ${dimensionCount} dimensions (at most ${GGUF_MAXIMUM_DIMENSIONS})`);
    }
    const dims: number[] = [];
    for (let dimension = 0; dimension < dimensionCount; dimension++) {
      const size = await cursor.uint64(`dimension ${dimension} of tensor "${name}"`);
      if (size > BigInt(Number.MAX_SAFE_INTEGER)) throw new CorruptGgufError(path, `tensor "${name}" has dimension ${dimension} of ${size}`);
      dims.push(Number(size));
    }
    const typeId = await cursor.uint32(`the type of tensor "${name}"`);
    const type = ggmlTypeNameOf(typeId);
    if (type === undefined) throw new UnsupportedTensorTypeError(path, name, `id ${typeId}`, Object.keys(GGML_TYPES));
    const relativeOffset = await cursor.uint64(`the data offset of tensor "${name}"`);
    const elementCount = dims.reduce((product, size) => product * size, 1);
    if (!Number.isSafeInteger(elementCount)) throw new CorruptGgufError(path, `tensor "${name}" has too many elements (${dims.join(" × ")})`);
    const rowLength = dims[0] ?? 1;
    if (rowLength % GGML_TYPES[type].blockSize !== 0) {
      throw new CorruptGgufError(path, `tensor "${name}" has rows of ${rowLength} values, not a multiple of ${type}'s block size ${GGML_TYPES[type].blockSize}`);
    }
    if (relativeOffset % BigInt(alignment) !== 0n) {
      throw new CorruptGgufError(path, `tensor "${name}" has data offset ${relativeOffset}, not a multiple of the alignment ${alignment}`);
    }
    if (relativeOffset > BigInt(fileSize)) {
      throw new TruncatedGgufError(path, `the data of tensor "${name}" (at offset ${relativeOffset} past the header)`, fileSize);
    }
    rawTensors.push({ name, type, dims, elementCount, relativeOffset: Number(relativeOffset) });
  }

  const dataOffset = alignUp(cursor.position, alignment);
  const tensors = rawTensors.map(({ name, type, dims, elementCount, relativeOffset }): GgufTensorInfo => {
    const fileOffset = dataOffset + relativeOffset;
    const byteLength = ggmlByteLength(type, elementCount);
    if (fileOffset + byteLength > fileSize) {
      throw new TruncatedGgufError(path, `the data of tensor "${name}" (bytes ${fileOffset} to ${fileOffset + byteLength})`, fileSize);
    }
    return { name, type, dims, elementCount, fileOffset, byteLength };
  });
  return { version, metadata, tensors, alignment, dataOffset };
}

async function readMagic(cursor: GgufHeaderCursor, path: string, fileSize: number): Promise<void> {
  if (fileSize === 0) throw new NotGgufError(path, "the file is empty");
  const available = Math.min(fileSize, GGUF_MAGIC.length);
  const magic = await cursor.bytes(available, "the GGUF magic");
  if (!magic.every((byte, index) => byte === GGUF_MAGIC[index])) {
    const hex = [...magic].map((byte) => byte.toString(16).padStart(2, "0")).join(" ");
    throw new NotGgufError(path, `it starts with bytes ${hex}, not "GGUF"`);
  }
  if (available < GGUF_MAGIC.length) throw new TruncatedGgufError(path, "the GGUF magic", fileSize);
}

/** A uint64 count whose items take at least `minimumItemBytes` each, so a corrupt count cannot exceed the file. */
async function readCount(cursor: GgufHeaderCursor, path: string, what: string, minimumItemBytes: number): Promise<number> {
  const count = await cursor.uint64(what);
  if (count * BigInt(minimumItemBytes) > BigInt(cursor.remaining)) {
    throw new TruncatedGgufError(path, `${what} (${count})`, cursor.fileSize);
  }
  return Number(count);
}

const MINIMUM_ITEM_BYTES: Record<GgufValueTypeName, number> = {
  uint8: 1, int8: 1, bool: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, float32: 4,
  uint64: 8, int64: 8, float64: 8, string: 8, array: 12,
};

async function readValue(cursor: GgufHeaderCursor, path: string, typeId: number, what: string, depth: number): Promise<GgufValue> {
  const type = TYPE_NAMES_BY_ID.get(typeId);
  if (type === undefined) throw new CorruptGgufError(path, `${what} has unknown value type ${typeId}`);
  switch (type) {
    case "uint8": return { type, value: await cursor.uint8(what) };
    case "int8": return { type, value: await cursor.int8(what) };
    case "uint16": return { type, value: await cursor.uint16(what) };
    case "int16": return { type, value: await cursor.int16(what) };
    case "uint32": return { type, value: await cursor.uint32(what) };
    case "int32": return { type, value: await cursor.int32(what) };
    case "float32": return { type, value: await cursor.float32(what) };
    case "float64": return { type, value: await cursor.float64(what) };
    case "uint64": return { type, value: await cursor.uint64(what) };
    case "int64": return { type, value: await cursor.int64(what) };
    case "bool": return { type, value: await readBool(cursor, path, what) };
    case "string": return { type, value: await cursor.string(what) };
    case "array": return readArray(cursor, path, what, depth);
  }
}

async function readBool(cursor: GgufHeaderCursor, path: string, what: string): Promise<boolean> {
  const byte = await cursor.uint8(what);
  if (byte > 1) throw new CorruptGgufError(path, `${what} is a bool stored as ${byte} (only 0 and 1 are valid)`);
  return byte === 1;
}

async function readArray(cursor: GgufHeaderCursor, path: string, what: string, depth: number): Promise<GgufArrayValue> {
  // Nesting deeper than this only happens in corrupt files; the limit keeps the stack safe.
  if (depth > 64) throw new CorruptGgufError(path, `${what} nests arrays more than 64 deep`);
  const itemTypeId = await cursor.uint32(`the item type of ${what}`);
  const itemType = TYPE_NAMES_BY_ID.get(itemTypeId);
  if (itemType === undefined) throw new CorruptGgufError(path, `${what} is an array of unknown value type ${itemTypeId}`);
  const length = await readCount(cursor, path, `the length of ${what}`, MINIMUM_ITEM_BYTES[itemType]);
  const items: unknown[] = new Array(length);
  if (itemType !== "string" && itemType !== "array" && itemType !== "bool") {
    // Fixed-size numbers: buffer the whole array once, then read without awaiting each item.
    await cursor.need(length * MINIMUM_ITEM_BYTES[itemType], what);
    for (let index = 0; index < length; index++) items[index] = cursor.bufferedScalar(itemType);
    return { type: "array", itemType, value: items } as GgufArrayValue;
  }
  for (let index = 0; index < length; index++) {
    // Vocabularies hold ~150k strings; most are read from the buffer without an await.
    const buffered = itemType === "string" ? cursor.bufferedString() : undefined;
    if (buffered !== undefined) {
      items[index] = buffered;
      continue;
    }
    const item = await readValue(cursor, path, itemTypeId, what, depth + 1);
    items[index] = item.type === "array" ? item : item.value;
  }
  // The items were read with the declared item type, so the cast only restores what the loop knew.
  return { type: "array", itemType, value: items } as GgufArrayValue;
}

function readAlignment(metadata: Map<string, GgufValue>, path: string): number {
  const entry = metadata.get("general.alignment");
  if (entry === undefined) return GGUF_DEFAULT_ALIGNMENT;
  if (entry.type !== "uint32" || entry.value === 0 || (entry.value & (entry.value - 1)) !== 0) {
    throw new CorruptGgufError(path, `general.alignment must be a uint32 power of two, got ${entry.type} ${String(entry.value)}`);
  }
  return entry.value;
}
