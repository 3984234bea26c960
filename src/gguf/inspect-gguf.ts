import type { GgmlTypeName } from "./ggml-type.js";
import { GgufReader } from "./gguf-reader.js";
import type { GgufArrayValue, GgufValue } from "./gguf-value.js";

/** A metadata value as plain JSON: numbers, strings, booleans, arrays, or an array summary. */
export type InspectedValue = number | string | boolean | InspectedValue[] | InspectedArraySummary;

/** Stands in for an array longer than `maximumArrayItems`: its item type, length and first items. */
export interface InspectedArraySummary {
  itemType: GgufArrayValue["itemType"];
  length: number;
  /** The first `summaryItems` items. */
  head: InspectedValue[];
}

export interface GgufInspection {
  version: number;
  alignment: number;
  metadata: Record<string, InspectedValue>;
  tensors: { name: string; type: GgmlTypeName; dims: number[] }[];
}

export interface InspectGgufOptions {
  /** Arrays with more items than this (tokenizer vocabularies, merges) are summarised. Default 64. */
  maximumArrayItems?: number;
  /** Items a summary keeps. Default 8. */
  summaryItems?: number;
}

/**
 * A JSON-ready description of a GGUF file: its metadata and its tensors'
 * names, types (ggml names such as "f32", "q4_K") and dims (innermost first,
 * as stored). 64-bit integers become numbers when exactly representable and
 * decimal strings otherwise; long arrays become `{itemType, length, head}`.
 * Reads only the header.
 */
export async function inspectGguf(path: string, options: InspectGgufOptions = {}): Promise<GgufInspection> {
  const maximumArrayItems = options.maximumArrayItems ?? 64;
  const summaryItems = options.summaryItems ?? 8;
  const reader = await GgufReader.open(path);
  try {
    const render = (value: GgufValue): InspectedValue => {
      if (value.type !== "array") return renderScalar(value.value);
      const items = value.value as readonly (GgufArrayValue | number | bigint | boolean | string)[];
      const renderItem = (item: (typeof items)[number]): InspectedValue =>
        typeof item === "object" ? render(item) : renderScalar(item);
      if (items.length <= maximumArrayItems) return items.map(renderItem);
      return { itemType: value.itemType, length: items.length, head: items.slice(0, summaryItems).map(renderItem) };
    };
    // fromEntries defines properties, so a key such as "__proto__" cannot reach the prototype.
    const metadata = Object.fromEntries([...reader.metadata].map(([key, value]) => [key, render(value)]));
    return {
      version: reader.version,
      alignment: reader.alignment,
      metadata,
      tensors: reader.tensors.map(({ name, type, dims }) => ({ name, type, dims: [...dims] })),
    };
  } finally {
    await reader.close();
  }
}

function renderScalar(value: number | bigint | boolean | string): InspectedValue {
  if (typeof value !== "bigint") return value;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}
