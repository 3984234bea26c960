import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { MAX_SEED } from "../../core/schemas/sampler-settings.js";
import { BUILT_IN_ENVIRONMENTS, loadEnvironment } from "../../tasks/built-in-environments.js";
import { defaultTrainerBackend } from "../../training/trainer/default-trainer-backend.js";
import { DEFAULT_LORA_ALPHA, DEFAULT_LORA_RANK, DEFAULT_LORA_TARGETS, LoraTargetSchema } from "../../inference/model-files/lora-defaults.js";
import type { FrontierConfiguration } from "../../frontier/frontier-configuration.js";
import { assertFrontierFits } from "../../training/loop/assert-frontier-fits.js";
import { assertBackendTakesThreads, updateThreads } from "../../training/trainer/update-threads.js";
import { NothingTrainedError } from "../../training/loop/errors/index.js";
import { train } from "../../training/loop/train.js";
import type { TrainingCheckpoint } from "../../training/loop/training-checkpoint.js";
import { findTrainingCheckpoint } from "../../training/loop/training-checkpoint-files.js";
import { TrainingConfigurationSchema } from "../../training/loop/training-configuration.js";
import { withTrainingDefaults } from "../../training/loop/with-training-defaults.js";
import type { TrainingStepMetrics } from "../../training/loop/training-step-metrics.js";
import { EXIT, type CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { DEVICE_FLAG, deviceOption } from "../device-flag.js";
import { describeDevice } from "../../inference/device/resolve-device.js";
import { describeEngineSettings } from "../../inference/llama/engine-settings.js";
import { describeThreads } from "../../core/thread-choice.js";
import { integerFlag, numberFlag } from "../flag-schemas.js";
import { parseOptions } from "../parse-options.js";
import { createProgressBar, type ProgressBar } from "../progress-bar.js";
import { readConfigurationFile } from "../read-configuration-file.js";
import { addServerClientOptions, SERVER_CLIENT_FLAGS, serverClientSettings } from "../server-client-flags.js";
import { describePoolSetting, POOL_ENGINE_HELP, POOL_FLAGS, resolvePoolSetting, WORKERS_HELP } from "../pool-setting.js";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { ReportTargetSchema } from "../../training/reports/metrics-reporters.js";
import { OpponentsSchema } from "../../training/loop/league-configuration.js";
import { formatEvaluationFigures } from "../format-evaluation-figures.js";

export const TrainCommandOptionsSchema = z.object({
  env: z.string().min(1, "a built-in environment name or a JavaScript module path").optional(),
  model: z.string().min(1, "a GGUF file path").optional(),
  data: z.string().min(1, "a dataset file path (.jsonl, .json, .csv, .parquet)").optional(),
  config: z.string().min(1, "a JSON file path").optional(),
  out: z.string().min(1, "a folder path").optional(),
  seed: integerFlag(0, MAX_SEED).optional(),
  steps: integerFlag(1, 1_000_000).optional(),
  resume: z.string().min(1, "the folder of the run to continue").optional(),
  frontier: z.enum(["uniform", "prm", "learnable"], { error: "one of: uniform, prm, learnable" }).optional(),
  groupSizing: z.enum(["off", "adaptive"], { error: "one of: off, adaptive" }).optional(),
  prm: z.string().min(1, "a PRM directory").optional(),
  trainer: z.enum(["tfjs", "ggml"], { error: "one of: tfjs, ggml" }).optional(),
  judgeModel: z.string().min(1, "a GGUF file path").optional(),
  loraRank: integerFlag(1, 1024).optional(),
  loraAlpha: numberFlag(0, 1e6).optional(),
  trainerThreads: integerFlag(1, 1024).optional(),
  loraTargets: z
    .string()
    .transform((value) => value.split(",").map((target) => target.trim()))
    .pipe(z.array(LoraTargetSchema, { error: `comma-separated matrix kinds among ${LoraTargetSchema.options.join(", ")}` }))
    .optional(),
  keepPolicies: z
    .string()
    .transform((value) => (value === "all" ? ("all" as const) : Number(value)))
    .pipe(z.union([z.literal("all"), z.number().int().min(1)], { error: 'a whole number of versions from 1, or "all"' }))
    .optional(),
  opponents: z.enum(OpponentsSchema.options, { error: `one of: ${OpponentsSchema.options.join(", ")}` }).optional(),
  reportTo: z
    .string()
    .transform((value) => value.split(",").map((target) => target.trim()))
    .pipe(z.array(ReportTargetSchema, { error: `comma-separated outputs among ${ReportTargetSchema.options.join(", ")}` }))
    .optional(),
  client: z.enum(["llama", "openai"], { error: "one of: llama, openai" }).optional(),
  ...SERVER_CLIENT_FLAGS,
  ...POOL_FLAGS,
  ...DEVICE_FLAG,
});

/**
 * `selfplay train [--env NAME|./module.js]`: trains a policy on an
 * environment — rollouts on the engine, an update per step, the weights synced
 * back every step. Without `--env`, the main job: proposer/solver arithmetic
 * self-play on the bundled base. Writes the run folder (metrics.jsonl,
 * rollouts.jsonl, policies/, checkpoints/, final.gguf or final.lora.gguf,
 * report.svg, report.json); `--resume DIR` continues a run that was killed.
 */
export async function trainCommand(rawOptions: unknown, { io, now, environment: variables = process.env }: CommandContext): Promise<number> {
  const options = parseOptions(TrainCommandOptionsSchema, rawOptions);
  const server = serverClientSettings(options, variables);
  // Speed only: a pooled run gives the in-process results, so a run may resume with another setting.
  const pool = await resolvePoolSetting(options, { environment: variables });
  if (options.resume !== undefined && options.out !== undefined && resolve(options.out) !== resolve(options.resume)) {
    throw new InvalidInputError("--out", "no --out with --resume (a resumed run goes on in its own folder)", options.out);
  }
  const resumed = options.resume === undefined ? undefined : await resumableCheckpoint(options.resume, io);
  // A resumed run starts from its own configuration; flags given anyway must agree with it (train checks).
  const baseConfiguration: Record<string, unknown> =
    options.config === undefined ? ((resumed?.configuration as Record<string, unknown> | undefined) ?? {}) : await readConfigurationFile(options.config, "--config");
  const lora = { ...(baseConfiguration.lora as object | undefined), ...(options.loraRank !== undefined && { rank: options.loraRank }), ...(options.loraAlpha !== undefined && { alpha: options.loraAlpha }), ...(options.loraTargets && { targets: options.loraTargets }) };
  const trainerSettings = { ...(baseConfiguration.trainer as object | undefined), ...(options.trainerThreads !== undefined && { threads: options.trainerThreads }) };
  const input = {
      ...baseConfiguration,
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(options.steps !== undefined && { steps: options.steps }),
      ...(options.device !== undefined && { device: options.device }),
      ...(options.keepPolicies !== undefined && { keepPolicies: options.keepPolicies }),
      ...(options.opponents !== undefined && { opponents: options.opponents }),
      frontier: frontierInput(baseConfiguration.frontier, options),
      ...(Object.keys(lora).length > 0 && { lora }),
      ...(Object.keys(trainerSettings).length > 0 && { trainer: trainerSettings }),
      // --data is the environment's `data` option, over the config file's; absolute, so a resume from elsewhere finds it.
      ...(options.data !== undefined && { environment: { ...(baseConfiguration.environment as object | undefined), data: resolve(options.data) } }),
  };
  const fieldName = (path: readonly PropertyKey[]) => `${options.config ?? "configuration"}: ${path.map(String).join(".")}`;
  // Checked once as given (the environment's options are in it), then again over the environment's own training defaults.
  const environmentOptions = parseInput(TrainingConfigurationSchema, input, { fieldName }).environment;
  const environmentName = options.env ?? resumed?.environment.module ?? resumed?.environment.name ?? "arithmetic";
  // The environment is checked (and its options validated) before any file is written.
  const environment = await loadEnvironment(environmentName, environmentOptions as JsonValue).catch((error: unknown) => {
    // Its options come from the config file: say which file the misspelt or wrong `environment.…` key is in.
    // A key the environment itself misspells (`environment ./x.js: evalute`) is the module's, not the file's.
    const aboutTheModule = error instanceof InvalidInputError && error.field.startsWith(`environment ${environmentName}: `);
    if (error instanceof InvalidInputError && options.config !== undefined && !aboutTheModule) error.message = `${options.config}: ${error.message}`;
    throw error;
  });
  const configuration = parseInput(TrainingConfigurationSchema, withTrainingDefaults(environment, input), { fieldName });
  assertFrontierFits(environment, configuration);
  const modelPath = options.model ?? resumed?.modelPath ?? bundledArithmeticBase();
  const directory = options.resume ?? options.out ?? join("runs", `train-${now().toISOString().replace(/[:.]/g, "-")}`);
  const metricsPath = join(directory, "metrics.jsonl");
  if (!resumed && existsSync(metricsPath)) {
    throw new InvalidInputError("--out", "a folder without a run in it; choose another --out, or continue that run with --resume", directory);
  }
  // --trainer, else the resumed run's own backend, else ggml when the addon is built (tfjs otherwise): said on stderr.
  const trainer =
    options.trainer !== undefined
      ? { backend: options.trainer, reason: "from --trainer" }
      : resumed
        ? { backend: resumed.trainerBackend, reason: "the run's own" }
        : await defaultTrainerBackend(configuration.trainer).then(({ backend, reason }) => ({ backend, reason: `default: ${reason}` }));
  const backend = trainer.backend;
  const threadsField = options.trainerThreads !== undefined ? "--trainer-threads" : `${options.config ?? "configuration"}: trainer.threads`;
  assertBackendTakesThreads(backend, configuration.trainer.threads, threadsField);
  const plan = environment.plan.map((entry) => `${entry.count} ${entry.episodeType}${(entry.groupSize ?? 1) > 1 ? ` × ${entry.groupSize}` : ""}`).join(" + ");
  io.stderr(
    resumed
      ? `resuming ${directory} after step ${resumed.step} of ${configuration.steps}\n`
      : `training ${environment.name} on ${modelPath} with the ${backend} trainer: ${configuration.steps} steps of ${plan}, ` +
          `${promptsDescription(configuration.frontier)} → ${directory}\n`,
  );
  io.stderr(describePoolSetting(pool));
  if (server !== undefined) io.stderr(`rollouts on ${server.endpoints.length} ${server.serverKind ?? "llama-server"} endpoint(s): ${server.endpoints.join(", ")}\n`);
  io.stderr(`trainer: ${backend} (${trainer.reason})${backend === "ggml" ? `, ${describeUpdateThreads(configuration.trainer.threads, threadsField)}` : ""}\n`);
  const isModule = !(environmentName in BUILT_IN_ENVIRONMENTS);
  // On a terminal, a bar of the step's episodes while they roll out; the step's line replaces it.
  let progress: { step: number; bar: ProgressBar } = { step: 0, bar: createProgressBar(io, "") };
  const result = await train({
    environment,
    ...(isModule && { environmentModule: resolve(environmentName) }),
    modelPath,
    directory,
    configuration,
    trainer: backend,
    pool: { workers: pool.workers, engine: pool.engine },
    ...(options.judgeModel !== undefined && { judgeModelPath: options.judgeModel }),
    ...(server !== undefined && { server }),
    ...(resumed && { resume: resumed }),
    ...(options.reportTo && { reportTo: options.reportTo }),
    onDevice: (device, engine) => io.stderr(`${describeDevice(device)}\n${engine === undefined ? "" : `${describeEngineSettings(engine)}\n`}`),
    onRolloutProgress: ({ step, done, total }) => {
      if (progress.step !== step) progress = { step, bar: createProgressBar(io, `step ${step}/${configuration.steps}`) };
      progress.bar.update(done, total);
    },
    onStep: (line) => {
      progress.bar.stop();
      io.stderr(stepLine(line, configuration.steps, configuration.frontier.mode !== "uniform" || configuration.frontier.groupSizing?.mode === "adaptive"));
    },
    // The environment defines the figure: greedy accuracy for arithmetic, the band share for riddles, clean episodes for tournaments.
    onEvaluation: ({ step, heldOutAccuracy, n, figures }) => io.stderr(`step ${step}: held-out evaluation ${(100 * heldOutAccuracy).toFixed(1)}% (n=${n})${formatEvaluationFigures(figures)}\n`),
  });
  io.stdout(`${JSON.stringify(result.report)}\n`);
  // Every file is written (final model, reports): a run that trained nothing still fails, where a script notices.
  if (result.report.steps > 0 && result.report.stepsWithoutTrainableRecords >= result.report.steps) throw new NothingTrainedError(result.report.steps, result.finalModel);
  return EXIT.ok;
}

/** How many threads the update runs on, and where that came from. */
function describeUpdateThreads(configured: number | undefined, field: string): string {
  return describeThreads({ threads: updateThreads(configured), reason: configured === undefined ? "default: this machine's cores" : `from ${field}` }, "update");
}

/** The progress line of a step: rewards per role, records trained and left out, rollouts dropped, speeds, the judging figures and the environment's summary. */
function stepLine(line: TrainingStepMetrics, steps: number, frontier: boolean): string {
  const rewards = Object.entries(line.rewards).map(([role, reward]) => `${role} ${reward.toFixed(3)}`).join(", ");
  const leftOut = Object.entries(line.skippedRecords).filter(([, count]) => count > 0).map(([reason, count]) => `${count} ${reason}`).join(", ");
  const summary = [judgingSummary(line), ...Object.entries(line.environment).map(([name, value]) => `${name} ${Number.isInteger(value) ? value : value.toFixed(3)}`)]
    .filter(Boolean)
    .join(", ");
  const records = line.skippedUpdate ? "NO TRAINABLE RECORD (update skipped)" : `${line.trainedRecords} records trained`;
  let text =
    `step ${line.step}/${steps}: reward ${rewards || "none"}; ${records}${leftOut ? `, left out ${leftOut}` : ""}${droppedText(line)}; ` +
    `${line.rolloutTokensPerSecond.toFixed(0)} rollout tokens/s, update ${line.updateSeconds.toFixed(1)} s, sync ${line.syncSeconds.toFixed(2)} s` +
    `${groupsText(line.groups)}${summary ? `; ${summary}` : ""}\n`;
  // Failed rollouts are never trained on: their count by stage and error, and the first one's error, on a line of their own.
  if (line.rollouts.failed > 0) text += `  ${failureLine(line)}\n`;
  // One line of counts and the first decision of each rule per step: every decision is in metrics.jsonl's counts.
  if (frontier) {
    const counts = Object.entries(line.frontier.reasons).map(([reason, count]) => `${reason} ${count}`).join(", ");
    const sizes = Object.entries(line.frontier.groupSizes ?? {}).map(([cluster, size]) => `${cluster} ${size.toFixed(1)}`).join(", ");
    text += `  targets: ${counts}\n${sizes ? `  group sizes: ${sizes}\n` : ""}${line.frontier.messages.map((message) => `    ${message}\n`).join("")}`;
  }
  return text;
}

/** `, 2 rollouts dropped (HeldOutProblemError 2)`: what the environment dropped by design, on the step's own line (no failure); empty when nothing was. */
function droppedText({ rollouts, drops }: TrainingStepMetrics): string {
  if (rollouts.dropped === 0) return "";
  return `, ${rollouts.dropped} rollout${rollouts.dropped === 1 ? "" : "s"} dropped (${Object.entries(drops).map(([name, count]) => `${name} ${count}`).join(", ")})`;
}

/** `; groups 3/8 informative`, and with dynamic sampling at work `, 4 kept of target 4 from 3 draws (20 dropped)`; empty for a step without groups. */
function groupsText({ drawn, informative, kept, dropped, target, draws, reachedTarget }: TrainingStepMetrics["groups"]): string {
  if (drawn === 0) return "";
  const sampled = draws > 1 || dropped > 0 ? `, ${kept} kept of target ${target}${reachedTarget ? "" : " (MISSED)"} from ${draws} draw(s) (${dropped} dropped)` : "";
  return `; groups ${informative}/${drawn} informative${sampled}`;
}

/** `position consistency 0.750 (n=16), judge agreement 0.500 (n=16)`: the step's judging figures, empty when it has none. */
function judgingSummary({ judging }: TrainingStepMetrics): string {
  if (!judging) return "";
  const figure = (name: string, share: number | null, n: number) => (share === null ? [] : [`${name} ${share.toFixed(3)} (n=${n})`]);
  return [
    ...figure("position consistency", judging.positionConsistency, judging.swappedVerdicts),
    ...figure("judge agreement", judging.judgeAgreement, judging.comparedVerdicts),
  ].join(", ");
}

/** `40 of 40 rollouts FAILED: score 40 (TypeError 40); first ep0 (echo) at score: TypeError: …`, the message's first line, cut at 300 characters. */
function failureLine({ rollouts, failures, firstFailure }: TrainingStepMetrics): string {
  const stages = Object.entries(failures).map(([stage, byName]) => {
    const counts = Object.entries(byName);
    return `${stage} ${counts.reduce((sum, [, count]) => sum + count, 0)} (${counts.map(([name, count]) => `${name} ${count}`).join(", ")})`;
  });
  let text = `${rollouts.failed} of ${rollouts.scored + rollouts.failed} rollouts FAILED: ${stages.join(", ")}`;
  if (firstFailure) {
    const [firstLine = ""] = firstFailure.error.message.split("\n");
    const message = firstLine.length > 300 ? `${firstLine.slice(0, 300)}…` : firstLine;
    text += `; first ${firstFailure.rolloutId} (${firstFailure.episodeType}) at ${firstFailure.stage}: ${firstFailure.error.name}: ${message}`;
  }
  return text;
}

/** How the run chooses its clustered prompts and sizes their groups, for its first line. */
function promptsDescription(frontier: FrontierConfiguration): string {
  const chosen = { uniform: "uniform prompts", prm: `prompts by the PRM-weighted frontier (${frontier.prmPath})`, learnable: "prompts by the learnable frontier" }[frontier.mode];
  return frontier.groupSizing?.mode === "adaptive" ? `${chosen}, groups sized to their clusters' pass rates` : chosen;
}

/** The configuration's `frontier` with the flags over it; a PRM path made absolute, so a resume from elsewhere finds it. */
function frontierInput(base: unknown, options: { frontier?: "uniform" | "prm" | "learnable" | undefined; prm?: string | undefined; groupSizing?: "off" | "adaptive" | undefined }): unknown {
  const frontier: Record<string, unknown> = typeof base === "object" && base !== null ? { ...base } : {};
  if (options.frontier !== undefined) frontier.mode = options.frontier;
  if (options.groupSizing !== undefined) frontier.groupSizing = { ...(typeof frontier.groupSizing === "object" && frontier.groupSizing !== null ? frontier.groupSizing : {}), mode: options.groupSizing };
  if (options.prm !== undefined) frontier.prmPath = options.prm;
  if (typeof frontier.prmPath === "string" && frontier.prmPath !== "") frontier.prmPath = resolve(frontier.prmPath);
  return frontier;
}

/** The newest complete checkpoint of the run in `directory`; checkpoints passed over are named on stderr. */
async function resumableCheckpoint(directory: string, io: CliIo): Promise<TrainingCheckpoint> {
  const { checkpoint, ignored } = await findTrainingCheckpoint(directory);
  for (const { path, reason } of ignored) io.stderr(`ignoring the checkpoint ${path}: ${reason}\n`);
  if (checkpoint) return checkpoint;
  throw new InvalidInputError(
    "--resume",
    `the folder of a selfplay train run with a complete checkpoint (checkpoints/step-<k>.json, written after the first evaluation and every step)${ignored.length > 0 ? "; the ones there are incomplete" : ", and this one has none"}`,
    directory,
  );
}

export function registerTrainCommand(program: Command, context: CommandContext): void {
  const command = program
    .command("train")
    .description("Train a policy on an environment: rollouts on the engine, an update per step, weights synced every step (default: arithmetic self-play on the bundled base).")
    .addOption(new Option("--env <name>", "environment: arithmetic (default), proposer-solver, exact-match, debate, dialectic, tournament, riddles, dream, tic-tac-toe, dataset (--data FILE), or ./module.js exporting createEnvironment"))
    .addOption(new Option("--data <file>", "the environment's data file (its `data` option): --env dataset or exact-match, or a module that reads it"))
    .addOption(new Option("--model <file>", "base model (default: the bundled arithmetic base in models/)"))
    .addOption(new Option("--config <file>", "JSON configuration overriding the defaults (steps, trainer, environment options…)"))
    .addOption(new Option("--out <dir>", "run folder (default runs/train-<timestamp>)"))
    .addOption(new Option("--seed <n>", "run seed"))
    .addOption(new Option("--steps <n>", "policy updates (overrides the configuration)"))
    .addOption(new Option("--resume <dir>", "continue the run in <dir> from its newest checkpoint, with its own configuration and model"))
    .addOption(new Option("--frontier <mode>", "how clustered prompts are chosen: uniform (default), prm (the PRM-weighted FrontierTracker), learnable (weighted by p(1−p) of each cluster's recent pass rate, a 20% uniform floor)"))
    .addOption(new Option("--group-sizing <mode>", "attempts per clustered prompt: off (default: the plan's), adaptive (sized to the cluster's pass rate, the step's rollouts kept)"))
    .addOption(new Option("--prm <dir>", "the PRM (selfplay prm train --out) the prm frontier scores clusters with"))
    .addOption(new Option("--trainer <backend>", "ggml (default when the native addon is built) or tfjs"))
    .addOption(deviceOption())
    .addOption(new Option("--judge-model <file>", "run judges on this model instead of the policy"))
    .addOption(new Option("--lora-rank <n>", `LoRA rank when training an adapter (default ${DEFAULT_LORA_RANK})`))
    .addOption(new Option("--lora-alpha <x>", `LoRA alpha (default ${DEFAULT_LORA_ALPHA})`))
    .addOption(new Option("--keep-policies <n|all>", "synced policies kept in policies/: the newest N versions (default 2), or all"))
    .addOption(new Option("--opponents <mode>", "who plays the environment's frozen roles (its opponent option): current (the policy, trained), frozen (default), league (drawn per game from the run's snapshots; league.size and league.currentShare in --config)"))
    .addOption(new Option("--report-to <outputs>", "where metrics also go, comma-separated: jsonl (metrics.jsonl, always written), csv (metrics.csv), tensorboard (event files in tensorboard/)"))
    .addOption(new Option("--trainer-threads <n>", "CPU threads of the ggml trainer's update, an integer from 1 to 1024 (default: this machine's cores; rollouts wait for the update)"))
    .addOption(new Option("--lora-targets <list>", `comma-separated matrices to adapt (default ${DEFAULT_LORA_TARGETS.join(",")})`))
    .addOption(new Option("--workers <n>", WORKERS_HELP))
    .addOption(new Option("--pool-engine <engine>", POOL_ENGINE_HELP))
    .addOption(new Option("--client <client>", "where rollouts run: llama (default: in this process) or openai (llama-server or vLLM endpoints, --endpoint)"));
  addServerClientOptions(command).action(async (flags: Record<string, unknown>) => {
    context.setExitCode(await trainCommand(flags, context));
  });
}
