import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { parseInput } from "../../core/parse-input.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { SelfPlayConfigurationSchema } from "../../../trainers/rl/self-play-configuration.js";
import { findSelfPlayCheckpoint } from "../../../trainers/rl/find-self-play-checkpoint.js";
import type { SelfPlayCheckpoint } from "../../../trainers/rl/self-play-checkpoint.js";
import { runSelfPlayTraining } from "../../../trainers/rl/self-play-training.js";
import { proposerTargetGapOfMetrics } from "../../../trainers/rl/proposer-target-gap.js";
import { trainingReportSvg } from "../../../trainers/rl/training-report-svg.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";
import { readConfigurationFile } from "../read-configuration-file.js";
import { describePoolSetting, POOL_ENGINE_HELP, POOL_FLAGS, resolvePoolSetting, WORKERS_HELP } from "../pool-setting.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";

export const TrainCommandOptionsSchema = z.object({
  model: z.string().min(1, "a GGUF file path").optional(),
  config: z.string().min(1, "a JSON file path").optional(),
  out: z.string().min(1, "a folder path").optional(),
  seed: integerFlag(0, MAX_SEED).optional(),
  steps: integerFlag(1, 1_000_000).optional(),
  resume: z.string().min(1, "the folder of the run to continue").optional(),
  frontier: z.enum(["uniform", "prm"], { error: "one of: uniform, prm" }).optional(),
  prm: z.string().min(1, "a PRM directory").optional(),
  ...POOL_FLAGS,
});

/** The lines of metrics.jsonl the report draws: steps carry rewards and their targets' reasons, evaluations an accuracy. */
const ReportLineSchema = z.object({
  step: z.number(),
  solverReward: z.number().optional(),
  proposerReward: z.number().optional(),
  frontier: z.object({ reasons: z.record(z.string(), z.number()) }).optional(),
});

/**
 * `selfplay train`: proposer/solver self-play on arithmetic with one policy,
 * trained with GRPO and synced back to the engine every step. Writes the run
 * folder (metrics.jsonl, policies/, checkpoints/, final.gguf, report.svg,
 * report.json); `--resume DIR` continues a run that was killed. `--frontier
 * prm --prm DIR` has the PRM-weighted FrontierTracker choose the proposals'
 * target clusters instead of uniform draws. `--workers N [--pool-engine …]`
 * (or this machine's saved bench default) runs the episodes in a RolloutPool.
 */
export async function trainCommand(rawOptions: unknown, { io, now, environment = process.env }: CommandContext): Promise<number> {
  const options = parseOptions(TrainCommandOptionsSchema, rawOptions);
  // Speed only: a pooled run gives the in-process results, so a run may resume with another setting.
  const pool = await resolvePoolSetting(options, { environment });
  if (options.resume !== undefined && options.out !== undefined && resolve(options.out) !== resolve(options.resume)) {
    throw new InvalidInputError("--out", "no --out with --resume (a resumed run goes on in its own folder)", options.out);
  }
  const resumed = options.resume === undefined ? undefined : await resumableCheckpoint(options.resume, io);
  // A resumed run starts from its own configuration; flags given anyway must agree with it (runSelfPlayTraining checks).
  const baseConfiguration: Record<string, unknown> =
    options.config === undefined ? (resumed?.configuration ?? {}) : await readConfigurationFile(options.config, "--config");
  const configuration = parseInput(SelfPlayConfigurationSchema, {
    ...baseConfiguration,
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.steps !== undefined && { steps: options.steps }),
    frontier: frontierInput(baseConfiguration.frontier, options),
  }, { fieldName: (path) => `${options.config ?? "configuration"}: ${path.map(String).join(".")}` });
  const modelPath = options.model ?? resumed?.modelPath ?? bundledArithmeticBase();
  const directory = options.resume ?? options.out ?? join("runs", `train-${now().toISOString().replace(/[:.]/g, "-")}`);
  const metricsPath = join(directory, "metrics.jsonl");
  if (!resumed && existsSync(metricsPath)) {
    throw new InvalidInputError("--out", "a folder without a run in it; choose another --out, or continue that run with --resume", directory);
  }
  io.stderr(
    resumed
      ? `resuming ${directory} after step ${resumed.step} of ${configuration.steps}\n`
      : `self-play training on ${modelPath}: ${configuration.steps} steps of ${configuration.proposals} proposals × ${configuration.solvers} solvers, ` +
          `${configuration.frontier.mode === "prm" ? `targets by the PRM-weighted frontier (${configuration.frontier.prmPath})` : "uniform targets"} → ${directory}\n`,
  );
  io.stderr(describePoolSetting(pool));
  const result = await runSelfPlayTraining({
    modelPath,
    directory,
    configuration,
    pool: { workers: pool.workers, engine: pool.engine },
    ...(resumed && { resume: resumed }),
    onStep: (line) => {
      io.stderr(
        `step ${line.step}/${configuration.steps}: reward proposer ${line.proposerReward.toFixed(3)} solver ${line.solverReward.toFixed(3)}, ` +
          `solve rate ${(100 * line.solveRate).toFixed(1)}%, valid proposals ${(100 * line.validProposals).toFixed(0)}%, ` +
          `${line.rolloutTokensPerSecond.toFixed(0)} rollout tokens/s, update ${line.updateSeconds.toFixed(1)} s, sync ${line.syncSeconds.toFixed(2)} s\n`,
      );
      // One line of counts and the first decision of each rule per step: every decision is in metrics.jsonl's counts.
      if (configuration.frontier.mode === "prm") {
        const counts = Object.entries(line.frontier.reasons).map(([reason, count]) => `${reason} ${count}`).join(", ");
        io.stderr(`  targets: ${counts}\n${line.frontier.messages.map((message) => `    ${message}\n`).join("")}`);
      }
    },
    onEvaluation: ({ step, heldOutAccuracy, n }) => io.stderr(`step ${step}: held-out greedy accuracy ${(100 * heldOutAccuracy).toFixed(1)}% (n=${n})\n`),
  });
  // From the file, not this process's steps: a resumed run's report covers the steps before the resume too.
  const { records } = await readJsonl(metricsPath, z.record(z.string(), z.unknown()));
  const steps = records.flatMap((record) => {
    const line = ReportLineSchema.safeParse(record);
    return line.success && line.data.solverReward !== undefined ? [line.data] : [];
  });
  const reasons: Record<string, number> = {};
  for (const [reason, count] of steps.flatMap((line) => Object.entries(line.frontier?.reasons ?? {}))) reasons[reason] = (reasons[reason] ?? 0) + count;
  const report = {
    model: modelPath,
    steps: configuration.steps,
    seed: configuration.seed,
    frontier: { mode: configuration.frontier.mode, ...(configuration.frontier.prmPath !== undefined && { prmPath: configuration.frontier.prmPath }), reasons },
    heldOutAccuracy: { start: result.evaluations[0]?.heldOutAccuracy ?? null, end: result.evaluations.at(-1)?.heldOutAccuracy ?? null },
    evaluations: result.evaluations,
    proposerTargetGap: proposerTargetGapOfMetrics(records, configuration.targetPassRate),
    finalModel: result.finalModel,
  };
  await writeFileAtomic(join(directory, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(
    join(directory, "report.svg"),
    trainingReportSvg(`selfplay train: arithmetic self-play, ${configuration.frontier.mode === "prm" ? "PRM-weighted frontier" : "uniform"} targets`, [
      { name: "solver reward", color: "#1f77b4", points: steps.map((line) => ({ step: line.step, value: line.solverReward ?? 0 })) },
      { name: "proposer reward", color: "#ff7f0e", points: steps.map((line) => ({ step: line.step, value: line.proposerReward ?? 0 })) },
      { name: "held-out accuracy", color: "#2ca02c", points: result.evaluations.map((entry) => ({ step: entry.step, value: entry.heldOutAccuracy })) },
    ]),
  );
  io.stdout(`${JSON.stringify(report)}\n`);
  return EXIT.ok;
}

/** The configuration's `frontier` with the flags over it; a PRM path made absolute, so a resume from elsewhere finds it. */
function frontierInput(base: unknown, options: { frontier?: "uniform" | "prm" | undefined; prm?: string | undefined }): unknown {
  const frontier: Record<string, unknown> = typeof base === "object" && base !== null ? { ...base } : {};
  if (options.frontier !== undefined) frontier.mode = options.frontier;
  if (options.prm !== undefined) frontier.prmPath = options.prm;
  if (typeof frontier.prmPath === "string" && frontier.prmPath !== "") frontier.prmPath = resolve(frontier.prmPath);
  return frontier;
}

/** The newest complete checkpoint of the run in `directory`; checkpoints passed over are named on stderr. */
async function resumableCheckpoint(directory: string, io: CliIo): Promise<SelfPlayCheckpoint> {
  const { checkpoint, ignored } = await findSelfPlayCheckpoint(directory);
  for (const { path, reason } of ignored) io.stderr(`ignoring the checkpoint ${path}: ${reason}\n`);
  if (checkpoint) return checkpoint;
  throw new InvalidInputError(
    "--resume",
    `the folder of a selfplay train run with a complete checkpoint (checkpoints/step-<k>.json, written after the first evaluation and every step)${ignored.length > 0 ? "; the ones there are incomplete" : ", and this one has none"}`,
    directory,
  );
}

export function registerTrainCommand(program: Command, context: CommandContext): void {
  program
    .command("train")
    .description("Proposer/solver self-play on arithmetic with one policy: rollouts on the engine, GRPO in tfjs, weights synced every step.")
    .addOption(new Option("--model <file>", "base model (default: the bundled arithmetic base in models/)"))
    .addOption(new Option("--config <file>", "JSON configuration overriding the defaults (steps, proposals, solvers, trainer…)"))
    .addOption(new Option("--out <dir>", "run folder (default runs/train-<timestamp>)"))
    .addOption(new Option("--seed <n>", "run seed"))
    .addOption(new Option("--steps <n>", "policy updates (overrides the configuration)"))
    .addOption(new Option("--resume <dir>", "continue the run in <dir> from its newest checkpoint, with its own configuration and model"))
    .addOption(new Option("--frontier <mode>", "how proposals get target clusters: uniform (default), prm (the PRM-weighted FrontierTracker)"))
    .addOption(new Option("--prm <dir>", "the PRM (selfplay prm train --out) the prm frontier scores clusters with"))
    .addOption(new Option("--workers <n>", WORKERS_HELP))
    .addOption(new Option("--pool-engine <engine>", POOL_ENGINE_HELP))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await trainCommand(flags, context));
    });
}
