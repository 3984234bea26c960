import { InvalidModelFileError } from "../errors/index.js";
import type { GgufMetadata, GgufValue } from "../../gguf/gguf-value.js";

/**
 * Typed, checked access to a model file's metadata. llama.cpp insists on exact
 * value types (a u64 where it expects u32 fails the load), so these getters do
 * too, and every failure is an InvalidModelFileError naming the file and key.
 */
export class MetadataFields {
  constructor(
    readonly path: string,
    private readonly metadata: GgufMetadata,
  ) {}

  fail(field: string, problem: string): never {
    throw new InvalidModelFileError(this.path, field, problem);
  }

  private get(key: string, required: boolean, expected: string): GgufValue | undefined {
    const value = this.metadata.get(key);
    if (value === undefined && required) this.fail(key, `missing; a model file needs it (${expected})`);
    return value;
  }

  string(key: string): string;
  string(key: string, options: { optional: true }): string | undefined;
  string(key: string, options?: { optional: true }): string | undefined {
    const value = this.get(key, options?.optional !== true, "a string");
    if (value === undefined) return undefined;
    if (value.type !== "string") this.fail(key, `is a ${describeType(value)}, expected a string`);
    return value.value;
  }

  /**
   * A positive count stored as uint32, or as a per-layer array of int32/uint32
   * whose entries are all equal (per-layer differences are not supported).
   */
  count(key: string, meaning: string): number;
  count(key: string, meaning: string, options: { optional: true }): number | undefined;
  count(key: string, meaning: string, options?: { optional: true }): number | undefined {
    const value = this.get(key, options?.optional !== true, `a uint32: ${meaning}`);
    if (value === undefined) return undefined;
    let count: number;
    if (value.type === "uint32") {
      count = value.value;
    } else if (value.type === "array" && (value.itemType === "uint32" || value.itemType === "int32")) {
      const distinct = new Set(value.value);
      if (distinct.size !== 1) this.fail(key, `per-layer values [${value.value.join(", ")}] differ or are empty; selfplay supports one value for all layers`);
      count = value.value[0] as number;
    } else {
      this.fail(key, `is a ${describeType(value)}, expected a uint32 (${meaning})`);
    }
    // llama.cpp asserts on zero-sized tensors, which a zero here would produce.
    if (count < 1) this.fail(key, `is ${count}, expected at least 1 (${meaning})`);
    return count;
  }

  /** Any uint32 (zero included), e.g. a token id; undefined when absent. */
  optionalUint32(key: string, meaning: string): number | undefined {
    const value = this.get(key, false, `a uint32: ${meaning}`);
    if (value === undefined) return undefined;
    if (value.type !== "uint32") this.fail(key, `is a ${describeType(value)}, expected a uint32 (${meaning})`);
    return value.value;
  }

  float32(key: string, meaning: string): number;
  float32(key: string, meaning: string, options: { optional: true }): number | undefined;
  float32(key: string, meaning: string, options?: { optional: true }): number | undefined {
    const value = this.get(key, options?.optional !== true, `a float32: ${meaning}`);
    if (value === undefined) return undefined;
    if (value.type !== "float32") this.fail(key, `is a ${describeType(value)}, expected a float32 (${meaning})`);
    if (!(value.value > 0) || !Number.isFinite(value.value)) this.fail(key, `is ${value.value}, expected a positive finite number (${meaning})`);
    return value.value;
  }

  /** An array whose items are of `itemType`; undefined when absent and optional. */
  array<T extends "string" | "int32" | "float32">(key: string, itemType: T): ArrayItems<T>;
  array<T extends "string" | "int32" | "float32">(key: string, itemType: T, options: { optional: true }): ArrayItems<T> | undefined;
  array<T extends "string" | "int32" | "float32">(key: string, itemType: T, options?: { optional: true }): ArrayItems<T> | undefined {
    const value = this.get(key, options?.optional !== true, `an array of ${itemType}`);
    if (value === undefined) return undefined;
    if (value.type !== "array" || value.itemType !== itemType) this.fail(key, `is ${describeType(value)}, expected an array of ${itemType}`);
    return value.value as ArrayItems<T>;
  }
}

type ArrayItems<T extends "string" | "int32" | "float32"> = T extends "string" ? string[] : number[];

function describeType(value: GgufValue): string {
  return value.type === "array" ? `array of ${value.itemType}` : value.type;
}
