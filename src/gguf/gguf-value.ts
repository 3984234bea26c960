/** GGUF metadata value type ids, as the file stores them (gguf.h `enum gguf_type`). */
export const GGUF_VALUE_TYPE_IDS = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

export type GgufValueTypeName = keyof typeof GGUF_VALUE_TYPE_IDS;

/** Types whose values are JavaScript numbers (64-bit integers are bigints instead, so they stay exact). */
export type GgufNumberTypeName = "uint8" | "int8" | "uint16" | "int16" | "uint32" | "int32" | "float32" | "float64";
export type GgufBigIntTypeName = "uint64" | "int64";

export interface GgufNumberValue {
  type: GgufNumberTypeName;
  value: number;
}
export interface GgufBigIntValue {
  type: GgufBigIntTypeName;
  value: bigint;
}
export interface GgufBoolValue {
  type: "bool";
  value: boolean;
}
export interface GgufStringValue {
  type: "string";
  value: string;
}

/** A homogeneous array; arrays of arrays nest, and the inner arrays may differ in item type. */
export type GgufArrayValue =
  | { type: "array"; itemType: GgufNumberTypeName; value: number[] }
  | { type: "array"; itemType: GgufBigIntTypeName; value: bigint[] }
  | { type: "array"; itemType: "bool"; value: boolean[] }
  | { type: "array"; itemType: "string"; value: string[] }
  | { type: "array"; itemType: "array"; value: GgufArrayValue[] };

/** One typed metadata value. The type travels with the value so a file round-trips exactly. */
export type GgufValue = GgufNumberValue | GgufBigIntValue | GgufBoolValue | GgufStringValue | GgufArrayValue;

/** Metadata in file order. */
export type GgufMetadata = ReadonlyMap<string, GgufValue>;
