import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { taskText } from "../../frontier/labelling/task-text.js";
import { PrmExampleSchema } from "../../frontier/prm/prm-state.js";
import { encodeParquet } from "./encode-parquet.js";
import { ExportFormatSchema, exportFileName, type ExportFormat } from "./export-format.js";
import type { ExportContent } from "./export-content.js";
import type { ExportTable } from "./export-table.js";
import { readRunResults, type RunResults } from "./read-run-results.js";
import { rolesWithSteps } from "./roles-with-steps.js";
import type { StepTableOptions } from "./step-table-options.js";
import { trajectoryLines } from "./trajectory-lines.js";
import { trlDpoTable } from "./trl-dpo-table.js";
import { trlKtoTable } from "./trl-kto-table.js";
import { trlPrmTable } from "./trl-prm-table.js";
import { trlSftTable } from "./trl-sft-table.js";
import { verlTable } from "./verl-table.js";

export const ExportRunOptionsSchema = z.strictObject({
  /** The run folder (`selfplay train --out`, `selfplay run --out`): its rollouts.jsonl is read. */
  run: z.string({ error: "the run folder to export (--run DIR)" }).min(1, "a folder path"),
  /** The layout to write: `trajectories`, `trl-sft`, `trl-dpo`, `trl-kto`, `trl-prm` or `verl` (docs/export.md). */
  format: ExportFormatSchema,
  /** The folder to write `train.parquet` (or, for `trajectories`, `train.jsonl`) into; created with its parents, and it must not hold that file yet. */
  out: z.string({ error: "the folder to write the export into (--out DIR)" }).min(1, "a folder path"),
  /** For `trl-prm`, and required there: the labelled states `selfplay prm label --out FILE` wrote from this run's rollouts. */
  labels: z.string().min(1, "a file path").optional(),
  /** For `trl-sft`, `trl-dpo`, `trl-kto` and `verl`: only this role's Steps (`solver`, `student` …). Default: every role's. */
  role: z.string().min(1, "a role id").optional(),
});
export type ExportRunOptions = z.input<typeof ExportRunOptionsSchema>;

/** What an export wrote. */
export interface ExportSummary {
  format: ExportFormat;
  /** The file written: `OUT/train.parquet` or `OUT/train.jsonl`. */
  file: string;
  /** Rows (for `trajectories`, lines) written. */
  rows: number;
  /** What of the run was left out, by reason, with counts (docs/export.md says each format's rule). */
  skipped: Record<string, number>;
  /** Input files whose last line was torn by an interrupted writer: that line was left out. */
  tornFiles: string[];
}

/** The formats made of the run's Steps, which `role` narrows. */
const STEP_TABLES: Partial<Record<ExportFormat, (results: readonly GenerateResult[], options: StepTableOptions) => ExportTable>> = {
  "trl-sft": trlSftTable,
  "trl-dpo": trlDpoTable,
  "trl-kto": trlKtoTable,
  verl: verlTable,
};

/**
 * Exports a run for another trainer: reads `RUN/rollouts.jsonl` (and, for
 * `trl-prm`, the labelled states), builds the format's rows, and writes one
 * file into `out` by write-then-rename, after every check: a bad option, a
 * run without what the format needs, or an existing file is an
 * InvalidInputError (CLI exit 2) and nothing is written.
 */
export async function exportRun(rawOptions: ExportRunOptions): Promise<ExportSummary> {
  const options = parseInput(ExportRunOptionsSchema, rawOptions, { fieldName: (path) => `--${String(path[0] ?? "options")}` });
  const { format } = options;
  if (format === "trl-prm" && options.labels === undefined) {
    throw new InvalidInputError("--labels", "the labelled states of this run for --format trl-prm: the JSONL file `selfplay prm label --trajectories RUN/rollouts.jsonl --out FILE` writes");
  }
  if (format !== "trl-prm" && options.labels !== undefined) throw new InvalidInputError("--labels", "only with --format trl-prm", options.labels);
  if (options.role !== undefined && STEP_TABLES[format] === undefined) {
    throw new InvalidInputError("--role", `only with --format ${Object.keys(STEP_TABLES).join(", ")} (${format} is not made of one role's Steps)`, options.role);
  }
  const target = join(options.out, exportFileName(format));
  await checkOutput(options.out, target);

  const run = await readRunResults(options.run);
  const exported = format === "trajectories" ? trajectoryLines(run.results, run.path) : await parquetExport(format, run, options);
  // Every check is behind us: the folder and the file appear only now, the file whole.
  await mkdir(options.out, { recursive: true });
  await writeFileAtomic(target, exported.content);
  const tornFiles = [...(run.tornLastLine ? [run.path] : []), ...(exported.tornFiles ?? [])];
  return { format, file: target, rows: exported.rows, skipped: { ...exported.skipped }, tornFiles };
}

/** A Parquet format's file: its table from the run's Steps, or (trl-prm) from the labelled states. */
async function parquetExport(format: ExportFormat, run: RunResults, options: z.output<typeof ExportRunOptionsSchema>): Promise<ExportContent> {
  let table: ExportTable;
  const tornFiles: string[] = [];
  const stepTable = STEP_TABLES[format];
  if (stepTable) {
    if (options.role !== undefined) checkRole(run.results, options.role, run.path);
    table = stepTable(run.results, { source: run.path, ...(options.role !== undefined && { role: options.role }) });
  } else {
    const labels = options.labels as string;
    const labelFile = await stat(labels).catch(() => undefined);
    if (!labelFile?.isFile()) throw new InvalidInputError("--labels", "the JSONL file of labelled states `selfplay prm label --out FILE` wrote", labels);
    const contents = await readJsonl(labels, PrmExampleSchema);
    if (contents.tornLastLine !== null) tornFiles.push(labels);
    table = trlPrmTable(contents.records, { labelsSource: labels, runSource: run.path, runTasks: promptTasks(run.results) });
  }
  return { content: encodeParquet(table, format), rows: table.rows.length, skipped: table.skipped, tornFiles };
}

/** Refuses an `out` that is a file, or that already holds the file this export writes. */
async function checkOutput(out: string, target: string): Promise<void> {
  const folder = await stat(out).catch(() => undefined);
  if (folder !== undefined && !folder.isDirectory()) throw new InvalidInputError("--out", "a folder (or a path to create one at); it is a file", out);
  if ((await stat(target).catch(() => undefined)) !== undefined) {
    throw new InvalidInputError("--out", `a folder without the file this export writes (${target} exists: choose another --out, or delete it)`, out);
  }
}

function checkRole(results: readonly GenerateResult[], role: string, source: string): void {
  const roles = rolesWithSteps(results);
  if (!roles.includes(role)) throw new InvalidInputError("--role", `a role with Steps in ${source}: one of ${roles.join(", ") || "(none: the run has no Steps)"}`, role);
}

/** The task text (`taskText`) of every Step's prompt in the run: what `selfplay prm label` names its states by. */
function promptTasks(results: readonly GenerateResult[]): Set<string> {
  const tasks = new Set<string>();
  const visit = (result: GenerateResult) => {
    for (const step of result.rollout.steps) tasks.add(taskText(step.prompt));
    for (const child of result.children) visit(child);
  };
  for (const result of results) visit(result);
  return tasks;
}
