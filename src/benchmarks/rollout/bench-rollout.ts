import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { createRandomModel } from "../../inference/model-files/create-random-model.js";
import type { DecodeMode } from "./decode-settings.js";
import { measureArithmeticCell } from "./measure-arithmetic-cell.js";
import { measureFixedCell } from "./measure-fixed-cell.js";
import { measureFleetCell } from "./measure-fleet-cell.js";
import type { RolloutBenchResult, RolloutCell } from "./rollout-bench-result.js";

export interface RolloutBenchOptions {
  /** Small sizes (tiny model, 1 thread, 16 tokens, one round) for a CI check of the output. */
  quick: boolean;
  /** Build llama.cpp's tools (llama-batched-bench, llama-server) when they are not built yet (minutes); when false their cells report why they are missing. */
  buildTools: boolean;
  /**
   * A GGUF file of the user's (a real model): only the fixed-shape cells, on this file, in both modes at 1 and 16
   * sequences; the arithmetic and fleet cells need the bundled base and are left out.
   */
  modelPath?: string;
  /** CPU threads of every cell with `modelPath` (default 1). */
  threads?: number;
}

/** The goal for default (fast) mode, at 1 and at 16 sequences. */
const RATIO_GOAL = 0.9;

const PLANS = {
  quick: { presets: ["tiny"], threads: [1], generatedTokens: 16, rounds: 1, proposals: 4 },
  full: { presets: ["tiny", "medium"], threads: [1, 2], generatedTokens: 128, rounds: 3, proposals: 16 },
} as const;
const SEQUENCES = [1, 16] as const;
const MODES: readonly DecodeMode[] = ["exact", "fast"];
/** 15 characters + the plain format's 17 = 32 prompt tokens. */
const PROMPT_CHARACTERS = 15;
/** Cells per sequence: 32 prompt + 128 generated tokens fit, and llama.cpp allocates 256 anyway. */
const CONTEXT_PER_SEQUENCE = 256;
/** The arithmetic cells' shape: 16 sequences at 1 thread in process; the fleet splits the 16 across two llama-servers of 1 thread each. */
const ARITHMETIC = { sequences: 16, threads: 1, fleetServers: 2 } as const;

/**
 * Every cell of `selfplay bench rollout`: each preset × thread count ×
 * sequence count × mode with a fixed shape, then the arithmetic self-play
 * workload in both modes, the exact one again over two llama-server processes
 * (the fleet cell), and the best fast-mode ratios the goal is judged on.
 */
export async function benchRollout(options: RolloutBenchOptions): Promise<RolloutBenchResult> {
  if (options.modelPath !== undefined) return benchRolloutOnFile(options, options.modelPath);
  const plan = options.quick ? PLANS.quick : PLANS.full;
  const folder = await mkdtemp(join(tmpdir(), "selfplay-bench-rollout-"));
  const cells: RolloutCell[] = [];
  try {
    for (const preset of plan.presets) {
      const { path } = await createRandomModel({ path: join(folder, `${preset}.gguf`), preset, architecture: "llama", seed: 0 });
      for (const threads of plan.threads) {
        for (const sequences of SEQUENCES) {
          for (const mode of MODES) {
            cells.push(await measureFixedCell({
              preset, modelPath: path, threads, sequences, mode, promptCharacters: PROMPT_CHARACTERS, generatedTokens: plan.generatedTokens,
              contextPerSequence: CONTEXT_PER_SEQUENCE, rounds: plan.rounds, buildTools: options.buildTools,
            }));
          }
        }
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const base = bundledArithmeticBase();
  const arithmetic: Partial<Record<DecodeMode, RolloutCell>> = {};
  for (const mode of MODES) {
    arithmetic[mode] = await measureArithmeticCell({
      modelPath: base, threads: ARITHMETIC.threads, sequences: ARITHMETIC.sequences, mode, proposals: plan.proposals, contextPerSequence: CONTEXT_PER_SEQUENCE, rounds: plan.rounds, buildTools: options.buildTools,
    });
    cells.push(arithmetic[mode]);
  }
  const inProcess = arithmetic.exact as RolloutCell;
  const fleet = await measureFleetCell({
    modelPath: base, servers: ARITHMETIC.fleetServers, sequences: ARITHMETIC.sequences, threadsPerServer: ARITHMETIC.threads, proposals: plan.proposals,
    contextPerSequence: CONTEXT_PER_SEQUENCE, rounds: plan.rounds, inProcess: { tokensPerSecond: inProcess.ours, threads: inProcess.threads }, buildTools: options.buildTools,
  });
  return resultOf(options.quick, cells, fleet, plan.presets.at(-1) ?? "tiny");
}

/** The fixed-shape cells on a user's file: what a real vocabulary and a real model cost, against llama.cpp on the same file. */
async function benchRolloutOnFile(options: RolloutBenchOptions, modelPath: string): Promise<RolloutBenchResult> {
  const plan = options.quick ? PLANS.quick : PLANS.full;
  const cells: RolloutCell[] = [];
  for (const sequences of SEQUENCES) {
    for (const mode of MODES) {
      cells.push(await measureFixedCell({
        preset: "file", modelPath, threads: options.threads ?? 1, sequences, mode, promptCharacters: PROMPT_CHARACTERS, generatedTokens: plan.generatedTokens,
        contextPerSequence: CONTEXT_PER_SEQUENCE, rounds: plan.rounds, buildTools: options.buildTools,
      }));
    }
  }
  return resultOf(options.quick, cells, { fleet: null, fleetReason: "not measured with --model: the fleet cell runs the bundled arithmetic base" }, "file");
}

function resultOf(quick: boolean, cells: RolloutCell[], fleet: Pick<RolloutBenchResult, "fleet" | "fleetReason">, largest: RolloutCell["preset"]): RolloutBenchResult {
  // Judged on the largest model measured, at the thread count where llama.cpp itself was fastest: a round that
  // other work on the machine slowed down can then only lower our ratio, never flatter it.
  const bestAt = (sequences: number) =>
    cells
      .filter((cell) => cell.shape === "fixed" && cell.preset === largest && cell.mode === "fast" && cell.sequences === sequences && cell.llamaCpp !== null)
      .reduce<RolloutCell | null>((best, cell) => (best === null || (cell.llamaCpp ?? 0) > (best.llamaCpp ?? 0) ? cell : best), null);
  const oneSequence = bestAt(1);
  const sixteenSequences = bestAt(16);
  return {
    benchmark: "rollout",
    quick,
    loadAverage: Number((loadavg()[0] ?? 0).toFixed(2)),
    cores: availableParallelism(),
    cells,
    ...fleet,
    best: {
      ratioGoal: RATIO_GOAL,
      oneSequence,
      sixteenSequences,
      goalMet: [oneSequence, sixteenSequences].every((cell) => cell !== null && (cell.ratio ?? 0) >= RATIO_GOAL),
    },
  };
}
