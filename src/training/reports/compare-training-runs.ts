import jstat from "jstat";
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
  /** The mean gain's 95% Student's t interval over the runs (each gain paired within its run: the same held-out rows at both ends); null below two. */
  gainInterval95: [number, number] | null;
}

/** A mode against the baseline mode, seed by seed: the runs of one seed share their seed's draws where the modes do not differ. */
export interface PairedModeComparison {
  mode: string;
  /** `uniform` when it was compared, else the first mode by name. */
  baseline: string;
  /** Seeds with a run of both modes, each with an evaluation within the budget. */
  seeds: number[];
  /** Accuracy at the budget of the mode's run − the baseline's, per seed. */
  differences: number[];
  meanDifference: number | null;
  /** Student's t 95% confidence interval of the mean difference; null with fewer than two seeds. */
  interval95: [number, number] | null;
}

export interface TrainingComparison {
  /** Wall-clock seconds every run is compared at. */
  budgetSeconds: number;
  runs: ComparedRun[];
  modes: Record<string, ComparedMode>;
  /** Each other mode against the baseline, paired by seed. */
  paired: PairedModeComparison[];
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
    modes[mode] = { runs: ofMode.length, seeds: ofMode.map((run) => run.seed), meanAccuracy: mean(accuracies), meanGain: mean(gains), gainInterval95: tInterval95(gains) };
  }
  return { budgetSeconds: budget, runs: compared, modes, paired: pairedComparisons(compared) };
}

/** Each mode against the baseline (`uniform`, else the first by name) over the seeds both ran. */
function pairedComparisons(compared: readonly ComparedRun[]): PairedModeComparison[] {
  const modes = [...new Set(compared.map((run) => run.frontier))].sort();
  const baseline = modes.includes("uniform") ? "uniform" : modes[0];
  const accuracyAt = (mode: string, seed: number) => compared.find((run) => run.frontier === mode && run.seed === seed)?.atBudget?.heldOutAccuracy;
  return modes
    .filter((mode) => mode !== baseline)
    .map((mode) => {
      const seeds = [...new Set(compared.filter((run) => run.frontier === mode).map((run) => run.seed))]
        .filter((seed) => accuracyAt(mode, seed) !== undefined && accuracyAt(baseline as string, seed) !== undefined)
        .sort((a, b) => a - b);
      const differences = seeds.map((seed) => (accuracyAt(mode, seed) as number) - (accuracyAt(baseline as string, seed) as number));
      return { mode, baseline: baseline as string, seeds, differences, meanDifference: mean(differences), interval95: tInterval95(differences) };
    });
}

/** The mean's two-sided 95% interval by Student's t with n − 1 degrees of freedom; null below two values. */
function tInterval95(values: readonly number[]): [number, number] | null {
  if (values.length < 2) return null;
  const center = mean(values) as number;
  const variance = values.reduce((sum, value) => sum + (value - center) ** 2, 0) / (values.length - 1);
  const half = jstat.jStat.studentt.inv(0.975, values.length - 1) * Math.sqrt(variance / values.length);
  return [center - half, center + half];
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}
