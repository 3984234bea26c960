import type { GgufInspection, InspectedArraySummary, InspectedValue } from "../gguf/inspect-gguf.js";

/** Items of an array shown in the text view; longer arrays end in "…". */
const SHOWN_ITEMS = 8;
/** Characters of a string shown in the text view (chat templates run to kilobytes). */
const SHOWN_CHARACTERS = 80;

/**
 * The text view of `selfplay model inspect`: one line per metadata key and
 * per tensor, with arrays and long strings cut short so a 150 000-token
 * vocabulary takes one line. `--json` prints the inspection itself instead.
 */
export function formatGgufInspection(path: string, inspection: GgufInspection): string {
  const parameterCount = inspection.tensors.reduce((total, tensor) => total + tensor.dims.reduce((product, size) => product * size, 1), 0);
  const lines = [
    `${path}: GGUF v${inspection.version}, ${Object.keys(inspection.metadata).length} metadata keys, ` +
      `${inspection.tensors.length} tensors (${parameterCount.toLocaleString("en-US")} values), alignment ${inspection.alignment}`,
    "metadata:",
    ...Object.entries(inspection.metadata).map(([key, value]) => `  ${key} = ${formatValue(value)}`),
    "tensors (dims innermost first):",
  ];
  const nameWidth = Math.max(0, ...inspection.tensors.map((tensor) => tensor.name.length));
  for (const { name, type, dims } of inspection.tensors) lines.push(`  ${name.padEnd(nameWidth)}  ${type.padEnd(6)}  [${dims.join(", ")}]`);
  return `${lines.join("\n")}\n`;
}

function formatValue(value: InspectedValue): string {
  if (typeof value === "string") {
    const shown = JSON.stringify(value.length > SHOWN_CHARACTERS ? value.slice(0, SHOWN_CHARACTERS) : value);
    return value.length > SHOWN_CHARACTERS ? `${shown}… (${value.length} characters)` : shown;
  }
  if (typeof value !== "object") return String(value);
  const { items, length, itemType } = Array.isArray(value) ? { items: value, length: value.length, itemType: undefined } : fromSummary(value);
  const shown = items.slice(0, SHOWN_ITEMS).map(formatValue);
  if (length <= shown.length) return `[${shown.join(", ")}]`;
  return `[${itemType === undefined ? "" : `${itemType} `}× ${length}: ${shown.join(", ")}, …]`;
}

function fromSummary(summary: InspectedArraySummary): { items: InspectedValue[]; length: number; itemType: string } {
  return { items: summary.head, length: summary.length, itemType: summary.itemType };
}
