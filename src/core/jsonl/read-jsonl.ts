import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { CorruptJsonlError } from "../errors/index.js";

export interface JsonlContents<T> {
  records: T[];
  /** The unterminated, unparsable last line an interrupted writer left behind, if any. */
  tornLastLine: string | null;
}

/**
 * Reads a JSONL file written by JsonlAppender. A torn last line (the process
 * was killed mid-write) is reported, not fatal; any other bad line is an error
 * naming its line number.
 */
export async function readJsonl<T>(path: string, schema: z.ZodType<T>): Promise<JsonlContents<T>> {
  const text = await readFile(path, "utf8");
  const lines = text.split("\n");
  const terminated = text.endsWith("\n");
  // split leaves "" after a final newline; an unterminated file's last element is the torn candidate.
  const last = lines.pop() ?? "";
  const records: T[] = [];
  lines.forEach((line, index) => records.push(parseLine(path, index + 1, line, schema)));
  if (terminated || last === "") return { records, tornLastLine: null };
  try {
    records.push(parseLine(path, lines.length + 1, last, schema));
    return { records, tornLastLine: null };
  } catch {
    return { records, tornLastLine: last };
  }
}

function parseLine<T>(path: string, lineNumber: number, line: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new CorruptJsonlError(path, lineNumber, (error as Error).message);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CorruptJsonlError(path, lineNumber, `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
