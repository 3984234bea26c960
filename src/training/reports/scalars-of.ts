/** The numbers of a metrics line, flattened to `parent/child` tags (TensorBoard's grouping); booleans as 0/1, other values left out. */
export function scalarsOf(line: Readonly<Record<string, unknown>>, prefix = ""): Record<string, number> {
  const scalars: Record<string, number> = {};
  for (const [key, value] of Object.entries(line)) {
    const tag = prefix === "" ? key : `${prefix}/${key}`;
    if (typeof value === "number") scalars[tag] = value;
    else if (typeof value === "boolean") scalars[tag] = value ? 1 : 0;
    else if (typeof value === "object" && value !== null && !Array.isArray(value)) Object.assign(scalars, scalarsOf(value as Record<string, unknown>, tag));
  }
  return scalars;
}
