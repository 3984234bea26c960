import { Option, type Command } from "commander";
import { z } from "zod";
import { benchPool } from "../../benchmarks/pool/bench-pool.js";
import type { PoolBenchResult } from "../../benchmarks/pool/pool-bench-result.js";
import { benchRollout } from "../../benchmarks/rollout/bench-rollout.js";
import type { RolloutBenchResult } from "../../benchmarks/rollout/rollout-bench-result.js";
import { benchStep } from "../../benchmarks/step/bench-step.js";
import type { StepBenchResult } from "../../benchmarks/step/step-bench-result.js";
import { benchTournamentSearch, type TournamentSearchBenchResult } from "../../benchmarks/tournament/tournament-search.js";
import { benchTournamentShrink, type TournamentShrinkResult } from "../../benchmarks/tournament/tournament-shrink.js";
import { benchTournamentThroughput, type TournamentThroughputResult } from "../../benchmarks/tournament/tournament-throughput.js";
import { benchTrainer } from "../../benchmarks/trainer/bench-trainer.js";
import type { TrainerBenchResult } from "../../benchmarks/trainer/trainer-bench-result.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { ModelPresetNameSchema } from "../../inference/model-files/model-presets.js";
import { EXIT } from "../cli-io.js";
import { integerFlag } from "../flag-schemas.js";
import type { CommandContext } from "../command-context.js";
import { parseOptions } from "../parse-options.js";
import { poolDefaultPath, writePoolDefault } from "../pool-default-file.js";

export const BenchCommandOptionsSchema = z.object({
  /** Small sizes that run in seconds, for CI; llama.cpp's tools are then used only if already built. */
  quick: z.boolean().default(false),
  json: z.boolean().default(false),
  /** Benchmarks that choose a setting (`bench pool`): keep it as this machine's default. */
  save: z.boolean().default(false),
  /** `bench step`: the environment whose plan a step runs (a built-in name or a module path). Default arithmetic. */
  env: z.string().min(1, "a built-in environment name or a JavaScript module path").optional(),
  /** `bench step`: the trainer backend. Default tfjs. */
  trainer: z.enum(["tfjs", "ggml"], { error: "one of: tfjs, ggml" }).optional(),
  /** `bench step`: the base model (default the bundled arithmetic base); `bench trainer`: a model to train a LoRA over. */
  model: z.string().min(1, "a GGUF file path").optional(),
  /** `bench trainer`: the project-made model trained (default medium; tiny with --quick). */
  preset: z.enum(ModelPresetNameSchema.options, { error: `one of: ${ModelPresetNameSchema.options.join(", ")}` }).optional(),
  /** `bench trainer`: measure at this many CPU threads only (default 1 and 2; 1 with --quick). */
  threads: integerFlag(1, 1024).optional(),
});
export type BenchCommandOptions = z.infer<typeof BenchCommandOptionsSchema>;

/** One benchmark: what `--help` says, how to run it, and its plain-text report. */
interface Benchmark<Result> {
  name: string;
  description: string;
  run: (quick: boolean, options: BenchCommandOptions) => Promise<Result>;
  format: (result: Result) => string;
  /** What a full run costs, said on stderr before it starts. */
  duration?: string;
  /** Flags of this benchmark alone. */
  flags?: Option[];
  /** Benchmarks that choose a setting keep it with `--save`; returns the line to say where it went. */
  save?: (result: Result, context: CommandContext) => Promise<string>;
}

/** `selfplay bench <name>`: runs one benchmark and prints its figures (one JSON object with --json). */
async function benchCommand<Result>(benchmark: Benchmark<Result>, rawOptions: unknown, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = parseOptions(BenchCommandOptionsSchema, rawOptions);
  if (options.save && options.quick) {
    throw new InvalidInputError("--save", "a full run (no --quick): quick figures are too small to choose this machine's default from", true);
  }
  if (!options.quick) io.stderr(`selfplay bench: measuring for ${benchmark.duration ?? "a few minutes (the first full run also builds llama.cpp's tools)"}…\n`);
  const result = await benchmark.run(options.quick, options);
  io.stdout(options.json ? `${JSON.stringify(result)}\n` : benchmark.format(result));
  if (options.save && benchmark.save) io.stderr(await benchmark.save(result, context));
  return EXIT.ok;
}

const figure = (value: number | null) => (value === null ? "-" : String(value));

function formatRollout(result: RolloutBenchResult): string {
  const header = "shape       preset           threads  seq  mode   prompt+gen  ours   native  llama.cpp  same-lib  node-llama-cpp  ratio  same-lib ratio";
  const rows = result.cells.map((cell) =>
    [cell.shape.padEnd(11), cell.preset.padEnd(16), String(cell.threads).padEnd(8), String(cell.sequences).padEnd(4), cell.mode.padEnd(6),
      `${cell.promptTokens}+${cell.generatedTokens}`.padEnd(11), String(cell.ours).padEnd(6), String(cell.nativeLoop).padEnd(7),
      figure(cell.llamaCpp).padEnd(10), figure(cell.llamaCppSameLibrary).padEnd(9), String(cell.nodeLlamaCpp).padEnd(15), figure(cell.ratio).padEnd(6),
      figure(cell.sameLibraryRatio)].join(" "),
  );
  const reasons = [...new Set(result.cells.flatMap((cell) => [cell.llamaCppReason, cell.llamaCppSameLibraryReason].filter((reason) => reason !== undefined)))];
  const best = (cell: RolloutBenchResult["best"]["oneSequence"]) => (cell === null ? "-" : `${cell.ratio} (${cell.preset}, ${cell.threads} thread(s))`);
  return [
    header,
    ...rows,
    ...reasons.map((reason) => `llama.cpp: ${reason}`),
    formatFleet(result),
    `best fast-mode ratio: 1 sequence ${best(result.best.oneSequence)}, 16 sequences ${best(result.best.sixteenSequences)}; goal ${result.best.ratioGoal} ${result.best.goalMet ? "met" : "not met"}`,
    "",
  ].join("\n");
}

function formatFleet({ fleet, fleetReason }: RolloutBenchResult): string {
  if (fleet === null) return `fleet (arithmetic, exact, over llama-server): - (${fleetReason})`;
  return [
    `fleet: arithmetic, exact, ${fleet.sequences} sequences over ${fleet.servers} llama-servers (${fleet.slotsPerServer} slots, ${fleet.threadsPerServer} thread(s) each), ${fleet.promptTokens}+${fleet.generatedTokens} tokens: `,
    `${fleet.ours} tokens/s vs ${fleet.inProcess} in process at ${fleet.inProcessThreads} thread(s) (ratio ${fleet.ratioToInProcess}) and ${fleet.inProcessSameThreads} at ${fleet.servers * fleet.threadsPerServer} (ratio ${fleet.sameThreadsRatio}); `,
    `servers started in ${fleet.serverStartSeconds.toFixed(1)} s, client connected in ${fleet.connectSeconds.toFixed(1)} s, requests served ${fleet.servedPerServer.join(" / ")}\n  ${fleet.note}`,
  ].join("");
}

function backendLabel(entry: TrainerBenchResult["backends"][number]): string {
  if (entry.backend !== "ggml") return `tfjs ${entry.backend}`;
  return `ggml, ${entry.threads ?? 1} thread(s)${entry.entropy === undefined ? "" : `, entropy ${entry.entropy ? "on" : "off"}`}`;
}

/** LoRA cells: the engine's forward over the same tokens and the trainer's share of it. */
function forwardComparison(entry: TrainerBenchResult["backends"][number]): string {
  if (entry.engineForwardTokensPerSecond === undefined) return "";
  const engine = entry.engineForwardTokensPerSecond ?? `- (${entry.engineForwardReason})`;
  return ` (engine forward, logits at every position: ${engine}; ratio ${figure(entry.forwardRatio ?? null)})`;
}

function formatTrainer(result: TrainerBenchResult): string {
  const model = `${result.preset ?? result.model} model (${result.parameters} parameters, ${result.weightType})`;
  const trained = result.lora ? `a rank-${result.lora.rank} LoRA over ${result.lora.pairs} matrices` : "every weight";
  const lines = [
    `${model}, ${trained}, sequences of ${result.sequenceLength} tokens, one per AdamW step; training tokens/s:`,
    ...result.backends.map((entry) => `  ${backendLabel(entry)}: ${entry.tokensPerSecond ?? `- (${entry.reason})`}${forwardComparison(entry)}`),
    ...result.llamaCpp.map((entry) => `  llama-finetune, ${entry.threads} thread(s): ${entry.tokensPerSecond ?? `- (${entry.reason})`}`),
    ...(result.llamaCpp.length > 0 ? [`ratio (best ours / best llama.cpp): ${figure(result.ratio)}`] : []),
    `peak RSS: ${(result.peakRssBytes / 2 ** 30).toFixed(2)} GiB`,
    `weight sync (${result.weightSync.format}): ${result.weightSync.seconds.toFixed(3)} s (export ${result.weightSync.exportSeconds.toFixed(3)} s, swap ${result.weightSync.swapSeconds.toFixed(3)} s)`,
  ];
  return `${lines.join("\n")}\n`;
}

function formatPool(result: PoolBenchResult): string {
  const setting = (cell: { workers: number; engine: string }) => (cell.workers === 0 ? "in-process" : `${cell.workers} worker(s), ${cell.engine} engine`);
  const rows = result.cells.map((cell) =>
    [setting(cell).padEnd(28), String(cell.threads).padEnd(8), cell.rolloutsPerSecond.toFixed(1).padEnd(11), cell.tokensPerSecond.toFixed(0).padEnd(9),
      cell.rounds.map((round) => round.rolloutsPerSecond.toFixed(1)).join(" ")].join(" "),
  );
  return [
    `${result.proposals} proposals × ${result.solvers} solvers a round, ${result.sequences} sequences per engine, ${result.machine.cores} cores (load ${result.machine.loadAverage.map((load) => load.toFixed(1)).join(" ")}); medians:`,
    "setting                      threads  rollouts/s  tokens/s  rounds (rollouts/s)",
    ...rows,
    `best: ${setting(result.best)}`,
    "",
  ].join("\n");
}

async function savePoolDefault(result: PoolBenchResult, { now, environment = process.env }: CommandContext): Promise<string> {
  const path = poolDefaultPath(environment);
  const saved = await writePoolDefault(path, result, now());
  return `saved the pool default (workers ${saved.workers}, ${saved.engine} engine) to ${path}: \`selfplay run\` and \`selfplay train\` use it when given no --workers\n`;
}

function formatStep(result: StepBenchResult): string {
  const seconds = (value: number) => value.toFixed(3).padEnd(9);
  const rows = result.steps.map((step) =>
    [String(step.step).padEnd(5), ...[step.rolloutSeconds, step.scoringSeconds, step.creditSeconds, step.updateSeconds, step.syncSeconds, step.totalSeconds].map(seconds),
      `${step.rollouts} rollouts, ${step.completionTokens} tokens, ${step.trainedRecords} records trained`].join(" "),
  );
  return [
    `${result.environment}: ${result.plan.map((entry) => `${entry.count} ${entry.episodeType}${(entry.groupSize ?? 1) > 1 ? ` × ${entry.groupSize}` : ""}`).join(" + ")}, ${result.sequences} sequences, ${result.trainer} trainer; seconds:`,
    "step  rollout   scoring   credit    update    sync      total",
    ...rows,
    "",
  ].join("\n");
}

/** `bench tournament`: throughput with scripted agents, the search red team's cost to its first exploit per seed, and the exploit pipeline's shrink sizes on its finds. */
interface TournamentBenchResult {
  benchmark: "tournament";
  throughput: TournamentThroughputResult;
  search: TournamentSearchBenchResult;
  shrink: TournamentShrinkResult;
}

async function benchTournament(quick: boolean): Promise<TournamentBenchResult> {
  return { benchmark: "tournament", throughput: await benchTournamentThroughput(quick), search: await benchTournamentSearch(quick), shrink: await benchTournamentShrink(quick) };
}

function formatTournament(result: TournamentBenchResult): string {
  const { throughput, search, shrink } = result;
  return [
    `tournament throughput, ${throughput.numCitizens} citizens, ${throughput.agents}:`,
    ...throughput.cells.map((cell) => `  kernel ${cell.kernelVersion}: ${cell.episodesPerSecond} episodes/s (${cell.episodes} episodes of ${cell.rounds} rounds in ${cell.seconds} s, ${cell.actionsPerSecond} actions/s)`),
    `search cost to the first exploit (red team ${search.redTeam.join(", ")}, beam ${search.beamWidth}, budget ${search.nodeBudget} nodes):`,
    ...search.summary.map(
      (entry) => `  kernel ${entry.kernelVersion} ${entry.objective}: found on ${entry.found} of ${entry.seeds} seeds${entry.found > 0 ? `, median ${figure(entry.medianNodesToFinding)} nodes, ${figure(entry.medianMillisecondsToFinding)} ms` : ""}`,
    ),
    `shrink sizes under ${shrink.kernelVersion} (red team ${shrink.redTeam.join(", ")}, search budget ${shrink.nodeBudget} nodes):`,
    ...shrink.runs.map((run) => `  ${run.objective} seed ${run.seed}: ${run.originalLength} → ${run.shrunkLength} actions, core ${run.coreLength}, ${run.replays} replays`),
    ...(shrink.notFound.length > 0 ? [`  not found within the budget: ${shrink.notFound.map((entry) => `${entry.objective} seed ${entry.seed}`).join(", ")}`] : []),
    "",
  ].join("\n");
}

function addBenchmark<Result>(bench: Command, context: CommandContext, benchmark: Benchmark<Result>): void {
  const command = bench
    .command(benchmark.name)
    .description(benchmark.description)
    .addOption(new Option("--quick", "small sizes that run in seconds (CI); llama.cpp's tools are used only if already built"))
    .addOption(new Option("--json", "print the result as one JSON object"));
  for (const flag of benchmark.flags ?? []) command.addOption(flag);
  if (benchmark.save) command.addOption(new Option("--save", "keep the best setting as this machine's default (not with --quick)"));
  command.action(async (flags: Record<string, unknown>) => {
    context.setExitCode(await benchCommand(benchmark, flags, context));
  });
}

export function registerBenchCommands(program: Command, context: CommandContext): void {
  const bench = program.command("bench").description("Measure selfplay against llama.cpp and node-llama-cpp on this machine (see benchmarks/RESULTS.md).");
  addBenchmark(bench, context, {
    name: "rollout",
    description: "Generated tokens/s of arena rollouts vs llama.cpp's llama-batched-bench and node-llama-cpp, same settings, per cell.",
    flags: [
      new Option("--model <file>", "a GGUF model of your own: only the fixed-shape cells, on this file (1 and 16 sequences, both modes)"),
      new Option("--threads <n>", "CPU threads of every cell with --model, an integer ≥ 1 (default 1)"),
    ],
    // --quick never builds llama.cpp (minutes): its cells then say the tool is missing.
    run: (quick, options) => {
      // The built-in cells measure their own thread counts; only a user's file takes one.
      if (options.threads !== undefined && options.model === undefined) throw new InvalidInputError("--threads", "used with --model (the built-in cells measure 1 and 2 threads themselves)", options.threads);
      return benchRollout({ quick, buildTools: !quick, ...(options.model !== undefined && { modelPath: options.model }), ...(options.threads !== undefined && { threads: options.threads }) });
    },
    format: formatRollout,
  });
  addBenchmark(bench, context, {
    name: "trainer",
    description:
      "Training tokens/s per tfjs backend and of the ggml trainer, and weight-sync seconds, vs llama.cpp's llama-finetune; --preset qwen2-0.5b or --model FILE: a rank-16 LoRA on ggml, entropy off and on, against the engine's forward over the same tokens (tokens/s, forward ratio, peak RSS, sync).",
    flags: [
      new Option("--preset <name>", `project-made model: ${ModelPresetNameSchema.options.join(", ")} (default medium; tiny with --quick)`),
      new Option("--model <file>", "a GGUF model to train a rank-16 LoRA over on ggml (any type llama.cpp reads)"),
      new Option("--threads <n>", "CPU threads of the ggml, engine and llama-finetune measurements, an integer ≥ 1 (default 1 and 2; 1 with --quick)"),
    ],
    run: (quick, options) =>
      benchTrainer({
        quick,
        buildTools: !quick,
        ...(options.preset !== undefined && { preset: options.preset }),
        ...(options.model !== undefined && { modelPath: options.model }),
        ...(options.threads !== undefined && { threads: options.threads }),
      }),
    format: formatTrainer,
  });
  addBenchmark(bench, context, {
    name: "step",
    description: "RL steps of an environment (--env, default arithmetic) on the bundled base (or --model), split into rollout, scoring, credit, update and sync (--trainer).",
    flags: [
      new Option("--env <name>", "environment: a built-in name or ./module.js (default arithmetic)"),
      new Option("--trainer <backend>", "tfjs (default) or ggml"),
      new Option("--model <file>", "base model (default the bundled arithmetic base)"),
    ],
    run: (quick, options) =>
      benchStep({ quick, ...(options.env !== undefined && { environment: options.env }), ...(options.trainer && { trainer: options.trainer }), ...(options.model !== undefined && { modelPath: options.model }) }),
    format: formatStep,
  });
  addBenchmark(bench, context, {
    name: "pool",
    description: "Rollouts/s of arithmetic self-play in-process and in RolloutPools of each shape; --save keeps the fastest as this machine's default.",
    run: (quick) => benchPool({ quick }),
    format: formatPool,
    duration: "well under a minute",
    save: savePoolDefault,
  });
  addBenchmark(bench, context, {
    name: "tournament",
    description: "Tournament episodes/s with scripted agents (honest + red) per shipped kernel, the search red team's cost to its first exploit per seed, and shrink sizes of its exploits under 0.1.0.",
    run: (quick) => benchTournament(quick),
    format: formatTournament,
    duration: "a few minutes (searches under 0.2.0 spend their whole node budget)",
  });
}
