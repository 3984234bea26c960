import { join } from "node:path";
import { z } from "zod";
import { MetricsCsvFile } from "./metrics-csv-file.js";
import { scalarsOf } from "./scalars-of.js";
import { TensorBoardEventFile } from "./tensorboard-event-file.js";

/** Where a run's metrics go besides metrics.jsonl, which every run writes (checkpoints and resume read it). */
export const ReportTargetSchema = z.enum(["jsonl", "csv", "tensorboard"]);
export type ReportTarget = z.infer<typeof ReportTargetSchema>;

/** The extra outputs of a run's metrics: `metrics.csv` (step lines) and TensorBoard events under `tensorboard/` (steps and evaluations). */
export interface MetricsReporters {
  step(step: number, line: Readonly<Record<string, unknown>>): void;
  evaluation(step: number, heldOutAccuracy: number): void;
}

export function openMetricsReporters(directory: string, targets: readonly ReportTarget[]): MetricsReporters {
  const csv = targets.includes("csv") ? MetricsCsvFile.open(join(directory, "metrics.csv")) : undefined;
  const events = targets.includes("tensorboard") ? TensorBoardEventFile.create(join(directory, "tensorboard")) : undefined;
  return {
    step: (step, line) => {
      const scalars = scalarsOf(line);
      csv?.writeRow(scalars);
      events?.writeScalars(step, scalars);
    },
    evaluation: (step, heldOutAccuracy) => events?.writeScalars(step, { heldOutAccuracy }),
  };
}
