import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject } from "../../core/json.js";
import { MessagesSchema } from "../../core/schemas/message.js";

/** The columns a dataset environment reads of every row; undefined where it reads none (a prompt function, custom rewards, no clusters). */
export interface DatasetColumns {
  prompt?: string | undefined;
  answer?: string | undefined;
  cluster?: string | undefined;
}

/** Rows of one source, and how an error names one of them by its index (`row 3`, `held-out row 2 of held-out.csv`). */
export interface DatasetRows {
  rows: readonly JsonObject[];
  rowName: (index: number) => string;
}

/**
 * Refuses the first row without a column the environment reads, naming the
 * option, the row and its columns: the prompt's as text, a number or messages
 * (`[{role, content}, …]`, TRL's conversational rows); the answer's and the
 * cluster's as text or a number.
 */
export function checkDatasetRows({ rows, rowName }: DatasetRows, columns: DatasetColumns): void {
  const { prompt, answer, cluster } = columns;
  if (prompt !== undefined) {
    rows.forEach((row, index) => {
      const value = row[prompt];
      if (typeof value === "string" || typeof value === "number" || (Array.isArray(value) && value.length > 0 && MessagesSchema.safeParse(value).success)) return;
      const found = value === undefined ? `no "${prompt}" column (its columns: ${Object.keys(row).join(", ")})` : `${JSON.stringify(value).slice(0, 80)}`;
      throw new InvalidInputError("environment.prompt", `a column every row has as text, or as messages [{"role": "system"|"user"|"assistant", "content": "…"}, …]; ${rowName(index)} has ${found}`, prompt);
    });
  }
  if (answer !== undefined) requireColumn({ rows, rowName }, answer, "environment.answer");
  if (cluster !== undefined) requireColumn({ rows, rowName }, cluster, "environment.cluster");
}

/** Refuses the first row whose `column` is missing, null, a list or an object (text, a number or a boolean pass), naming `field`. */
function requireColumn({ rows, rowName }: DatasetRows, column: string, field: string): void {
  const index = rows.findIndex((row) => row[column] === undefined || row[column] === null || typeof row[column] === "object");
  if (index >= 0) throw new InvalidInputError(field, `a column every row has as text or a number; ${rowName(index)} has columns ${Object.keys(rows[index] as JsonObject).join(", ")}`, column);
}
