import { arch, availableParallelism, cpus, loadavg, platform } from "node:os";
import { bundledArithmeticBase } from "../../inference/model-files/bundled-models.js";
import { ArithmeticEnvironmentOptionsSchema } from "../../tasks/arithmetic/arithmetic-environment.js";
import { TrainingConfigurationSchema } from "../../training/loop/training-configuration.js";
import { measurePoolCell } from "./measure-pool-cell.js";
import type { PoolBenchResult, PoolCell, PoolCellResult } from "./pool-bench-result.js";

export interface PoolBenchOptions {
  /** 2 proposals × 2 solvers a round (a CI check of the output) instead of `selfplay train`'s 32 × 8. */
  quick: boolean;
  /** Cores to plan for. Default `os.availableParallelism()`. */
  cores?: number;
}

/** Timed rounds of every cell (each about one RL step's rollouts, under a second on 2 cores); the median counts. */
const ROUNDS = 9;
const QUICK_ROUNDS = 3;

/** In-process; a shared engine with 1 worker and with one per core; an engine in each of 2 workers (the cores split). */
export function poolCells(cores: number): PoolCell[] {
  const cells: PoolCell[] = [
    { workers: 0, engine: "shared" },
    { workers: 1, engine: "shared" },
    { workers: cores, engine: "shared" },
    { workers: 2, engine: "per-worker" },
  ];
  return cells.filter((cell, index) => cells.findIndex((other) => other.workers === cell.workers && other.engine === cell.engine) === index);
}

/**
 * Rollouts/s and generated tokens/s of `selfplay train`'s arithmetic
 * self-play on the bundled base, in-process and in RolloutPools of each
 * shape, one cell after another; `best` is the cell with the highest median
 * rollouts/s — what `selfplay bench pool --save` makes this machine's default.
 */
export async function benchPool(options: PoolBenchOptions): Promise<PoolBenchResult> {
  const cores = options.cores ?? availableParallelism();
  const training = TrainingConfigurationSchema.parse({});
  const arithmetic = ArithmeticEnvironmentOptionsSchema.parse({});
  const proposals = options.quick ? 2 : arithmetic.proposals;
  const solvers = options.quick ? 2 : arithmetic.solvers;
  const modelPath = bundledArithmeticBase();
  const machine = { cores, cpuModel: cpus()[0]?.model ?? "unknown", platform: platform(), arch: arch(), loadAverage: loadavg() };
  const cells: PoolCellResult[] = [];
  for (const cell of poolCells(cores)) {
    cells.push(await measurePoolCell({ cell, modelPath, sequences: training.sequences, proposals, solvers, rounds: options.quick ? QUICK_ROUNDS : ROUNDS, cores }));
  }
  const fastest = cells.reduce((best, cell) => (cell.rolloutsPerSecond > best.rolloutsPerSecond ? cell : best));
  return {
    benchmark: "pool",
    quick: options.quick,
    model: modelPath,
    proposals,
    solvers,
    sequences: training.sequences,
    cells,
    best: { workers: fastest.workers, engine: fastest.engine },
    machine,
  };
}
