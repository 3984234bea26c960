import { InvalidInputError } from "../src/core/errors/index.js";

/** The integer ≥ 1 after `name` on this script's command line (`--rounds 5`), or `fallback` when the flag is absent. */
export function integerFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new InvalidInputError(name, "an integer ≥ 1", process.argv[at + 1]);
  return value;
}
