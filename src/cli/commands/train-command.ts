import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors.js";
import { parseInput } from "../../core/parse-input.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { SelfPlayConfigurationSchema } from "../../../trainers/rl/self-play-configuration.js";
import { runSelfPlayTraining, type SelfPlayStepMetrics } from "../../../trainers/rl/self-play-training.js";
import { trainingReportSvg } from "../../../trainers/rl/training-report-svg.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { integerFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";

export const TrainCommandOptionsSchema = z.object({
  model: z.string().min(1, "a GGUF file path").optional(),
  config: z.string().min(1, "a JSON file path").optional(),
  out: z.string().min(1, "a folder path").optional(),
  seed: integerFlag(0, MAX_SEED).optional(),
  steps: integerFlag(1, 1_000_000).optional(),
});

/**
 * `selfplay train`: proposer/solver self-play on arithmetic with one policy,
 * trained with GRPO and synced back to the engine every step. Writes the run
 * folder (metrics.jsonl, policies/, final.gguf, report.svg, report.json).
 */
export async function trainCommand(rawOptions: unknown, { io, now }: CommandContext): Promise<number> {
  const options = parseOptions(TrainCommandOptionsSchema, rawOptions);
  const fileConfiguration = options.config === undefined ? {} : JSON.parse(await readFile(options.config, "utf8"));
  const configuration = parseInput(SelfPlayConfigurationSchema, {
    ...fileConfiguration,
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.steps !== undefined && { steps: options.steps }),
  }, { fieldName: (path) => `${options.config ?? "configuration"}: ${path.map(String).join(".")}` });
  const modelPath = options.model ?? bundledArithmeticBase();
  const directory = options.out ?? join("runs", `train-${now().toISOString().replace(/[:.]/g, "-")}`);
  if (existsSync(join(directory, "metrics.jsonl"))) throw new InvalidInputError("--out", "a folder without a run in it; choose another --out", directory);
  io.stderr(`self-play training on ${modelPath}: ${configuration.steps} steps of ${configuration.proposals} proposals × ${configuration.solvers} solvers → ${directory}\n`);
  const steps: SelfPlayStepMetrics[] = [];
  const result = await runSelfPlayTraining({
    modelPath,
    directory,
    configuration,
    onStep: (line) => {
      steps.push(line);
      io.stderr(
        `step ${line.step}/${configuration.steps}: reward proposer ${line.proposerReward.toFixed(3)} solver ${line.solverReward.toFixed(3)}, ` +
          `solve rate ${(100 * line.solveRate).toFixed(1)}%, valid proposals ${(100 * line.validProposals).toFixed(0)}%, ` +
          `${line.rolloutTokensPerSecond.toFixed(0)} rollout tokens/s, update ${line.updateSeconds.toFixed(1)} s, sync ${line.syncSeconds.toFixed(2)} s\n`,
      );
    },
    onEvaluation: ({ step, heldOutAccuracy, n }) => io.stderr(`step ${step}: held-out greedy accuracy ${(100 * heldOutAccuracy).toFixed(1)}% (n=${n})\n`),
  });
  const report = {
    model: modelPath,
    steps: configuration.steps,
    heldOutAccuracy: { start: result.evaluations[0]?.heldOutAccuracy ?? null, end: result.evaluations.at(-1)?.heldOutAccuracy ?? null },
    evaluations: result.evaluations,
    finalModel: result.finalModel,
  };
  await writeFileAtomic(join(directory, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(
    join(directory, "report.svg"),
    trainingReportSvg("selfplay train: arithmetic self-play", [
      { name: "solver reward", color: "#1f77b4", points: steps.map((line) => ({ step: line.step, value: line.solverReward })) },
      { name: "proposer reward", color: "#ff7f0e", points: steps.map((line) => ({ step: line.step, value: line.proposerReward })) },
      { name: "held-out accuracy", color: "#2ca02c", points: result.evaluations.map((entry) => ({ step: entry.step, value: entry.heldOutAccuracy })) },
    ]),
  );
  io.stdout(`${JSON.stringify(report)}\n`);
  return EXIT.ok;
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
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await trainCommand(flags, context));
    });
}
