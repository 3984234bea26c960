import { appendFileSync, existsSync, readFileSync } from "node:fs";

const quote = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * `metrics.csv`: one row per step of the scalars of its metrics line. The
 * columns are those of the first row written (a resumed run keeps the file's
 * own header), so a field that appears later is in metrics.jsonl only; rows
 * are appended, never rewritten.
 */
export class MetricsCsvFile {
  private constructor(
    readonly path: string,
    private columns: string[] | undefined,
  ) {}

  static open(path: string): MetricsCsvFile {
    const header = existsSync(path) ? readFileSync(path, "utf8").split("\n", 1)[0] : undefined;
    return new MetricsCsvFile(path, header ? header.split(",") : undefined);
  }

  writeRow(scalars: Readonly<Record<string, number>>): void {
    let text = "";
    if (this.columns === undefined) {
      this.columns = Object.keys(scalars);
      text += `${this.columns.map(quote).join(",")}\n`;
    }
    text += `${this.columns.map((column) => (scalars[column] === undefined ? "" : String(scalars[column]))).join(",")}\n`;
    appendFileSync(this.path, text);
  }
}
