import type { Node } from "acorn";

/**
 * The string a literal or template literal stands for; a template's
 * `${…}` parts become `*`, so `data_${i}.csv` reads `data_*.csv`.
 * Null for anything else.
 */
export function stringValue(node: Node): string | null {
  if (node.type === "Literal") {
    const value = (node as unknown as { value: unknown }).value;
    return typeof value === "string" ? value : null;
  }
  if (node.type === "TemplateLiteral") {
    const quasis = (node as unknown as { quasis: { value: { cooked: string | null; raw: string } }[] }).quasis;
    return quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join("*");
  }
  return null;
}

/** Whether a file name matches a pattern whose `*` stands for any run of characters. */
export function matchesPattern(name: string, pattern: string): boolean {
  if (!pattern.includes("*")) return name === pattern;
  const expression = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${expression}$`).test(name);
}

/** The last path segment: `./data/sales.csv` → `sales.csv`. */
export function baseName(path: string): string {
  const segments = path.split(/[\\/]/);
  return segments[segments.length - 1] ?? path;
}
