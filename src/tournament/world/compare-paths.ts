/**
 * The fixed order a refusal names its fields in: segment by segment, array
 * indices by value, keys by UTF-16 code units (never the locale), a path
 * before its extensions — so the order a submission's keys were written in
 * never shows.
 */
export function comparePaths(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const order = compareSegments(a[index] as PropertyKey, b[index] as PropertyKey);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function compareSegments(a: PropertyKey, b: PropertyKey): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  // An index sorts before a key; symbols (which no submission can carry) by their text.
  if (typeof a === "number" || typeof b === "number") return typeof a === "number" ? -1 : 1;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
