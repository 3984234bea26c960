import type { RiddlerMemoryEntry } from "./riddler-memory-entry.js";
import { percent } from "./riddler-memory-entry.js";

/** The band a riddle should land in, as shares (config.band). */
export interface SolveRateBand {
  low: number;
  high: number;
}

/** Tags and operand sizes listed in the distilled section, most riddles first. */
const GROUPS_SHOWN = 5;

/**
 * The riddler's distilled section: deterministic counts over every entry so
 * far — totals and band share, calibration of its difficulty guesses, solve
 * rate by tag and by operand size (digits of the largest number in the
 * riddle), and which way the recent riddles missed the band.
 */
export function distillRiddlerMemory(entries: readonly RiddlerMemoryEntry[], band: SolveRateBand): string[] {
  const valid = entries.filter((entry) => entry.solveRate !== null);
  const rates = valid.map((entry) => entry.solveRate as number);
  const inBand = rates.filter((rate) => rate >= band.low && rate <= band.high).length;
  const lines = [
    `episodes ${entries.length}: valid ${valid.length}, no riddle ${entries.length - valid.length}; ` +
      `in band ${band.low}–${band.high}: ${inBand}/${valid.length} (${percent(share(inBand, valid.length))}); ` +
      `near-duplicates ${entries.filter((entry) => entry.nearDuplicate).length}; mean reward ${mean(entries.map((entry) => entry.reward))?.toFixed(3) ?? "-"}`,
  ];
  if (valid.length === 0) return lines;
  // difficultyGuessPct is the riddler's guess of the solve rate.
  const errors = valid.map((entry) => (entry.difficultyGuessPct as number) / 100 - (entry.solveRate as number));
  const bias = mean(errors) as number;
  lines.push(
    `guessed vs measured solve rate: mean |error| ${Math.round((mean(errors.map(Math.abs)) as number) * 100)} points, ` +
      `guesses run ${bias > 0.05 ? "high (riddles harder than guessed)" : bias < -0.05 ? "low (riddles easier than guessed)" : "about right"}`,
  );
  for (const [tag, group] of largestGroups(valid, (entry) => entry.tags)) lines.push(`tag ${JSON.stringify(tag)}: ${groupLine(group, band)}`);
  for (const [digits, group] of largestGroups(valid, (entry) => operandDigits(entry.riddle))) lines.push(`largest number ${digits} digit(s): ${groupLine(group, band)}`);
  const recent = mean(rates.slice(-GROUPS_SHOWN)) as number;
  lines.push(
    recent > band.high
      ? `last ${Math.min(GROUPS_SHOWN, rates.length)} riddles too easy (mean solve rate ${percent(recent)}): make them harder`
      : recent < band.low
        ? `last ${Math.min(GROUPS_SHOWN, rates.length)} riddles too hard (mean solve rate ${percent(recent)}): make them easier`
        : `last ${Math.min(GROUPS_SHOWN, rates.length)} riddles in band on average (mean solve rate ${percent(recent)}): keep the difficulty`,
  );
  return lines;
}

function groupLine(group: readonly RiddlerMemoryEntry[], band: SolveRateBand): string {
  const rates = group.map((entry) => entry.solveRate as number);
  const inBand = rates.filter((rate) => rate >= band.low && rate <= band.high).length;
  return `${group.length} riddle(s), mean solve rate ${percent(mean(rates))}, in band ${inBand}`;
}

/** Groups by every key an entry has; the largest groups first, ties by key. */
function largestGroups(entries: readonly RiddlerMemoryEntry[], keys: (entry: RiddlerMemoryEntry) => readonly string[]): Array<[string, RiddlerMemoryEntry[]]> {
  const groups = new Map<string, RiddlerMemoryEntry[]>();
  for (const entry of entries) for (const key of new Set(keys(entry))) groups.set(key, [...(groups.get(key) ?? []), entry]);
  return [...groups.entries()].sort(([a, left], [b, right]) => right.length - left.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, GROUPS_SHOWN);
}

/** Digits of the largest whole number in the riddle; none for a riddle without numbers. */
function operandDigits(riddle: string | null): string[] {
  const numbers = riddle?.match(/\d+/g) ?? [];
  if (numbers.length === 0) return [];
  return [String(Math.max(...numbers.map((number) => number.replace(/^0+(?=\d)/, "").length)))];
}

function share(count: number, total: number): number | null {
  return total === 0 ? null : count / total;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}
