import { Option, type Command } from "commander";
import { z } from "zod";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { summariseProposerTargetGap, type ProposerTargetGap } from "../../tasks/arithmetic/proposer-target-gap.js";
import { compareTrainingRuns } from "../../training/reports/compare-training-runs.js";
import { readTrainingRun } from "../../training/reports/read-training-run.js";
import { trainingReportSvg } from "../../training/reports/training-report-svg.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext, RegisterCommand } from "../command-context.js";
import { numberFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";

export const TrainCompareCommandOptionsSchema = z.object({
  runs: z.array(z.string().min(1)).min(1, "at least one run folder"),
  budget: numberFlag(0, 1e9).optional(),
  svg: z.string().min(1, "a file path").optional(),
  json: z.boolean().default(false),
});

/** Colours of the frontier modes in the chart. */
const MODE_COLOURS: Record<string, string> = { uniform: "#1f77b4", prm: "#d62728" };

/**
 * `selfplay train-compare DIR…`: held-out accuracy of `selfplay train` runs
 * at equal wall-clock time (by default the shortest run's), per run and
 * averaged per frontier mode; `--svg` draws accuracy over seconds.
 */
export async function trainCompareCommand(rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(TrainCompareCommandOptionsSchema, rawOptions);
  const runs = await Promise.all(options.runs.map((directory) => readTrainingRun(directory, summariseProposerTargetGap)));
  const comparison = compareTrainingRuns(runs, options.budget);
  if (options.svg !== undefined) {
    const series = runs.map((run) => ({
      name: `${run.frontier} seed ${run.seed}`,
      color: MODE_COLOURS[run.frontier] ?? "#7f7f7f",
      points: run.evaluations.map((evaluation) => ({ step: evaluation.elapsedSeconds, value: evaluation.heldOutAccuracy })),
    }));
    await writeFileAtomic(options.svg, trainingReportSvg("selfplay train: held-out accuracy over wall-clock time", series, { xLabel: (last) => `seconds (to ${Math.round(last)})` }));
  }
  if (options.json) {
    io.stdout(`${JSON.stringify(comparison)}\n`);
    return EXIT.ok;
  }
  const percent = (value: number | null) => (value === null ? "n/a" : `${(100 * value).toFixed(1)}%`);
  const lines = [`held-out accuracy at ${comparison.budgetSeconds.toFixed(0)} s of wall-clock time:`];
  for (const run of comparison.runs) {
    const at = run.atBudget === null ? "no evaluation yet" : `${percent(run.atBudget.heldOutAccuracy)} (step ${run.atBudget.step}, ${run.atBudget.elapsedSeconds.toFixed(0)} s)`;
    const gap = run.taskSummary?.proposerTargetGap as ProposerTargetGap | null | undefined;
    const gapText = gap === null || gap === undefined ? "" : `; proposer |pass rate − target| ${gap.first.gap.toFixed(3)} → ${gap.last.gap.toFixed(3)} (per problem ${gap.first.perProblemGap.toFixed(3)} → ${gap.last.perProblemGap.toFixed(3)})`;
    lines.push(`  ${run.directory}: ${run.frontier}, seed ${run.seed}: ${at}; at step 0 ${percent(run.startAccuracy)}${gapText}`);
  }
  const points = (value: number) => `${value >= 0 ? "+" : ""}${(100 * value).toFixed(1)}`;
  for (const [mode, summary] of Object.entries(comparison.modes)) {
    const interval = summary.gainInterval95 === null ? "" : `, 95% interval ${points(summary.gainInterval95[0])} to ${points(summary.gainInterval95[1])} points`;
    lines.push(`${mode}: mean ${percent(summary.meanAccuracy)}, mean gain ${percent(summary.meanGain)}${interval} over ${summary.runs} run(s) (seeds ${summary.seeds.join(", ")})`);
  }
  for (const pair of comparison.paired) {
    if (pair.meanDifference === null) continue;
    const interval = pair.interval95 === null ? "" : `, 95% interval ${points(pair.interval95[0])} to ${points(pair.interval95[1])}`;
    lines.push(`${pair.mode} − ${pair.baseline}, paired by seed (${pair.seeds.join(", ")}): ${pair.differences.map(points).join(", ")} points; mean ${points(pair.meanDifference)}${interval}`);
  }
  io.stdout(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

export const registerTrainCompareCommand: RegisterCommand = (program: Command, context: CommandContext) => {
  program
    .command("train-compare")
    .description("Compare selfplay train runs (e.g. --frontier uniform vs prm, several seeds) by held-out accuracy at equal wall-clock time.")
    .argument("<runs...>", "run folders of selfplay train")
    .addOption(new Option("--budget <seconds>", "wall-clock seconds to compare at (default: the shortest run's last evaluation)"))
    .addOption(new Option("--svg <file>", "also draw held-out accuracy over seconds, one line per run"))
    .addOption(new Option("--json", "print {budgetSeconds, runs, modes, paired}"))
    .action(async (runs: string[], flags: Record<string, unknown>) => {
      context.setExitCode(await trainCompareCommand({ ...flags, runs }, context));
    });
};
