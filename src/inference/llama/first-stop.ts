/** Index of the earliest occurrence of any stop string in `text`, or undefined when none occurs. */
export function firstStop(text: string, stops: readonly string[]): number | undefined {
  let first: number | undefined;
  for (const stop of stops) {
    const index = text.indexOf(stop);
    if (index >= 0 && (first === undefined || index < first)) first = index;
  }
  return first;
}
