import { Option, type Command } from "commander";
import { z } from "zod";
import { ExportRunOptionsSchema, exportRun, type ExportSummary } from "../../training/export/export-run.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext, RegisterCommand } from "../command-context.js";
import { parseOptions } from "../parse-options.js";

export const ExportCommandOptionsSchema = ExportRunOptionsSchema.extend({ json: z.boolean().default(false) });

/**
 * `selfplay export --run DIR --format FORMAT --out DIR`: writes a run's
 * rollouts as selfplay's own trajectories (`OUT/train.jsonl`) or as a
 * trainer's dataset (`OUT/train.parquet`: TRL's SFT, DPO, KTO or PRM layout,
 * verl's RL prompts), and prints what it wrote and left out. Exit 2, with
 * nothing written, for a bad flag or a run that lacks what the format needs.
 */
export async function exportCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const { json, ...options } = parseOptions(ExportCommandOptionsSchema, rawOptions);
  const summary = await exportRun(options);
  for (const file of summary.tornFiles) io.stderr(`warning: ${file}: its last line is torn (an interrupted write) and was left out\n`);
  io.stdout(json ? `${JSON.stringify(summary)}\n` : describeExport(summary));
  return EXIT.ok;
}

function describeExport(summary: ExportSummary): string {
  const left = Object.entries(summary.skipped).filter(([, count]) => count > 0);
  // `tiedRankings` → "tied rankings".
  const skipped = left.length === 0 ? "" : `; left out: ${left.map(([reason, count]) => `${count} ${reason.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)}`).join(", ")}`;
  return `${summary.format}: ${summary.rows} ${summary.format === "trajectories" ? "line(s)" : "row(s)"} → ${summary.file}${skipped}\n`;
}

export const registerExportCommand: RegisterCommand = (program: Command, context: CommandContext) => {
  program
    .command("export")
    .description("Write a run's rollouts for another trainer: selfplay's trajectories (JSONL), or TRL's SFT, DPO, KTO, PRM or verl's dataset (Parquet).")
    .addOption(new Option("--run <dir>", "the run folder (selfplay train or run --out): its rollouts.jsonl is read"))
    .addOption(new Option("--format <format>", "trajectories, trl-sft, trl-dpo, trl-kto, trl-prm or verl (docs/export.md)"))
    .addOption(new Option("--out <dir>", "folder to write train.parquet (trajectories: train.jsonl) into"))
    .addOption(new Option("--labels <file>", "trl-prm: the labelled states selfplay prm label wrote from this run"))
    .addOption(new Option("--role <id>", "trl-sft, trl-dpo, trl-kto, verl: only this role's Steps (default: every role's)"))
    .addOption(new Option("--json", "print {format, file, rows, skipped, tornFiles}"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await exportCommand(flags, context));
    });
};
