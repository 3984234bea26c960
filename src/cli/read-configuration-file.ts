import { readFile } from "node:fs/promises";
import { InvalidInputError } from "../core/errors/index.js";

/**
 * The JSON object in a configuration file a flag names (`--config FILE`); a
 * file that cannot be read, is not JSON or is not an object is an
 * InvalidInputError naming the flag, the file and the problem. Its keys are
 * checked by the schema it is parsed with.
 */
export async function readConfigurationFile(path: string, flag: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InvalidInputError(flag, `a readable JSON file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, path);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(flag, `a file of JSON (${path}: ${(error as Error).message})`, path);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InvalidInputError(flag, `a file holding one JSON object ({ "key": value, … }), not ${Array.isArray(value) ? "an array" : String(value === null ? "null" : typeof value)}`, path);
  return value as Record<string, unknown>;
}
