import { InvalidInputError } from "../../core/errors/index.js";
import type { TrainingRun } from "./read-training-run.js";

/** One run at the common wall-clock budget. */
export interface ComparedRun {
  directory: string;
  frontier: TrainingRun["frontier"];
  seed: number;
  /** Held-out accuracy before training (step 0). */
  startAccuracy: number | null;
  /** The last evaluation finished within the budget; null when none was. */
  atBudget: { step: number; heldOutAccuracy: number; elapsedSeconds: number } | null;
  /** Over the whole run, not the budget: what its task makes of its metrics (see readTrainingRun). */
  taskSummary: TrainingRun["taskSummary"];
}

/** Runs of one frontier mode at the budget. */
export interface ComparedMode {
  runs: number;
  seeds: number[];
  /** Mean held-out accuracy at the budget over the runs that had an evaluation by then. */
  meanAccuracy: number | null;
  /** Mean of (accuracy at the budget − accuracy at step 0). */
  meanGain: number | null;
}

export interface TrainingComparison {
  /** Wall-clock seconds every run is compared at. */
  budgetSeconds: number;
  runs: ComparedRun[];
  modes: Record<string, ComparedMode>;
}

/**
 * Compares runs at equal wall-clock time: each run's held-out accuracy is
 * that of its last evaluation finished within `budgetSeconds` — by default
 * the time of the shortest run's last evaluation, which every run reached —
 * averaged per frontier mode over seeds.
 */
export function compareTrainingRuns(runs: readonly TrainingRun[], budgetSeconds?: number): TrainingComparison {
  if (runs.length === 0) throw new InvalidInputError("runs", "at least one selfplay train run folder", []);
  const budget = budgetSeconds ?? Math.min(...runs.map((run) => run.evaluations.at(-1)?.elapsedSeconds ?? 0));
  const compared: ComparedRun[] = runs.map((run) => {
    const within = run.evaluations.filter((evaluation) => evaluation.elapsedSeconds <= budget);
    const last = within.at(-1);
    return {
      directory: run.directory,
      frontier: run.frontier,
      seed: run.seed,
      startAccuracy: run.evaluations.find((evaluation) => evaluation.step === 0)?.heldOutAccuracy ?? null,
      atBudget: last ? { step: last.step, heldOutAccuracy: last.heldOutAccuracy, elapsedSeconds: last.elapsedSeconds } : null,
      taskSummary: run.taskSummary,
    };
  });
  const modes: Record<string, ComparedMode> = {};
  for (const mode of [...new Set(compared.map((run) => run.frontier))].sort()) {
    const ofMode = compared.filter((run) => run.frontier === mode);
    const accuracies = ofMode.flatMap((run) => (run.atBudget ? [run.atBudget.heldOutAccuracy] : []));
    const gains = ofMode.flatMap((run) => (run.atBudget && run.startAccuracy !== null ? [run.atBudget.heldOutAccuracy - run.startAccuracy] : []));
    modes[mode] = { runs: ofMode.length, seeds: ofMode.map((run) => run.seed), meanAccuracy: mean(accuracies), meanGain: mean(gains) };
  }
  return { budgetSeconds: budget, runs: compared, modes };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}
