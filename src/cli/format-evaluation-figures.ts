/** An evaluation's own figures for a line of text: `, strictAccuracy 0.413, truncated 0.020, …`, or nothing. */
export function formatEvaluationFigures(figures: Readonly<Record<string, number>> | undefined): string {
  if (figures === undefined) return "";
  return Object.entries(figures)
    .map(([name, value]) => `, ${name} ${Number.isInteger(value) ? String(value) : value.toFixed(3)}`)
    .join("");
}
