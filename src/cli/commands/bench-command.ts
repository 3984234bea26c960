import { Option, type Command } from "commander";
import { z } from "zod";
import { benchRollout } from "../../../benchmarks/rollout/bench-rollout.js";
import type { RolloutBenchResult } from "../../../benchmarks/rollout/rollout-bench-result.js";
import { benchStep } from "../../../benchmarks/step/bench-step.js";
import type { StepBenchResult } from "../../../benchmarks/step/step-bench-result.js";
import { benchTrainer } from "../../../benchmarks/trainer/bench-trainer.js";
import type { TrainerBenchResult } from "../../../benchmarks/trainer/trainer-bench-result.js";
import { EXIT } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { parseOptions } from "../parse-options.js";

export const BenchCommandOptionsSchema = z.object({
  /** Small sizes that run in seconds, for CI; llama.cpp's tools are then used only if already built. */
  quick: z.boolean().default(false),
  json: z.boolean().default(false),
});

/** One benchmark: what `--help` says, how to run it, and its plain-text report. */
interface Benchmark<Result> {
  name: string;
  description: string;
  run: (quick: boolean) => Promise<Result>;
  format: (result: Result) => string;
}

/** `selfplay bench <name>`: runs one benchmark and prints its figures (one JSON object with --json). */
async function benchCommand<Result>(benchmark: Benchmark<Result>, rawOptions: unknown, { io }: CommandContext): Promise<number> {
  const options = parseOptions(BenchCommandOptionsSchema, rawOptions);
  if (!options.quick) io.stderr("selfplay bench: measuring for a few minutes (the first full run also builds llama.cpp's tools)…\n");
  const result = await benchmark.run(options.quick);
  io.stdout(options.json ? `${JSON.stringify(result)}\n` : benchmark.format(result));
  return EXIT.ok;
}

const figure = (value: number | null) => (value === null ? "-" : String(value));

function formatRollout(result: RolloutBenchResult): string {
  const header = "shape       preset           threads  seq  mode   prompt+gen  ours   native  llama.cpp  node-llama-cpp  ratio";
  const rows = result.cells.map((cell) =>
    [cell.shape.padEnd(11), cell.preset.padEnd(16), String(cell.threads).padEnd(8), String(cell.sequences).padEnd(4), cell.mode.padEnd(6),
      `${cell.promptTokens}+${cell.generatedTokens}`.padEnd(11), String(cell.ours).padEnd(6), String(cell.nativeLoop).padEnd(7),
      figure(cell.llamaCpp).padEnd(10), String(cell.nodeLlamaCpp).padEnd(15), figure(cell.ratio)].join(" "),
  );
  const reasons = [...new Set(result.cells.flatMap((cell) => (cell.llamaCppReason === undefined ? [] : [cell.llamaCppReason])))];
  const best = (cell: RolloutBenchResult["best"]["oneSequence"]) => (cell === null ? "-" : `${cell.ratio} (${cell.preset}, ${cell.threads} thread(s))`);
  return [
    header,
    ...rows,
    ...reasons.map((reason) => `llama.cpp: ${reason}`),
    `best fast-mode ratio: 1 sequence ${best(result.best.oneSequence)}, 16 sequences ${best(result.best.sixteenSequences)}; goal ${result.best.ratioGoal} ${result.best.goalMet ? "met" : "not met"}`,
    "",
  ].join("\n");
}

function formatTrainer(result: TrainerBenchResult): string {
  const lines = [
    `${result.preset} model (${result.parameters} parameters), sequences of ${result.sequenceLength} tokens, one per AdamW step; training tokens/s:`,
    ...result.backends.map((entry) => `  tfjs ${entry.backend}: ${entry.tokensPerSecond ?? `- (${entry.reason})`}`),
    ...result.llamaCpp.map((entry) => `  llama-finetune, ${entry.threads} thread(s): ${entry.tokensPerSecond ?? `- (${entry.reason})`}`),
    `ratio (best ours / best llama.cpp): ${figure(result.ratio)}`,
    `weight sync (${result.weightSync.format}): ${result.weightSync.seconds.toFixed(3)} s (export ${result.weightSync.exportSeconds.toFixed(3)} s, swap ${result.weightSync.swapSeconds.toFixed(3)} s)`,
  ];
  return `${lines.join("\n")}\n`;
}

function formatStep(result: StepBenchResult): string {
  const seconds = (value: number) => value.toFixed(3).padEnd(9);
  const rows = result.steps.map((step) =>
    [String(step.step).padEnd(5), ...[step.rolloutSeconds, step.scoringSeconds, step.creditSeconds, step.updateSeconds, step.syncSeconds, step.totalSeconds].map(seconds),
      `${step.rollouts} rollouts, ${step.completionTokens} tokens, ${step.trainedRecords} records trained`].join(" "),
  );
  return [
    `${result.proposals} proposals × ${result.solvers} solvers, ${result.sequences} sequences, tfjs ${result.backend}; seconds:`,
    "step  rollout   scoring   credit    update    sync      total",
    ...rows,
    "",
  ].join("\n");
}

function addBenchmark<Result>(bench: Command, context: CommandContext, benchmark: Benchmark<Result>): void {
  bench
    .command(benchmark.name)
    .description(benchmark.description)
    .addOption(new Option("--quick", "small sizes that run in seconds (CI); llama.cpp's tools are used only if already built"))
    .addOption(new Option("--json", "print the result as one JSON object"))
    .action(async (flags: Record<string, unknown>) => {
      context.setExitCode(await benchCommand(benchmark, flags, context));
    });
}

export function registerBenchCommands(program: Command, context: CommandContext): void {
  const bench = program.command("bench").description("Measure selfplay against llama.cpp and node-llama-cpp on this machine (see benchmarks/RESULTS.md).");
  addBenchmark(bench, context, {
    name: "rollout",
    description: "Generated tokens/s of arena rollouts vs llama.cpp's llama-batched-bench and node-llama-cpp, same settings, per cell.",
    // --quick never builds llama.cpp (minutes): its cells then say the tool is missing.
    run: (quick) => benchRollout({ quick, buildTools: !quick }),
    format: formatRollout,
  });
  addBenchmark(bench, context, {
    name: "trainer",
    description: "Training tokens/s per tfjs backend and weight-sync seconds vs llama.cpp's llama-finetune.",
    run: (quick) => benchTrainer({ quick, buildTools: !quick }),
    format: formatTrainer,
  });
  addBenchmark(bench, context, {
    name: "step",
    description: "One RL step of arithmetic self-play on the bundled base, split into rollout, scoring, credit, update and sync.",
    run: (quick) => benchStep({ quick }),
    format: formatStep,
  });
}
