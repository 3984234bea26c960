import { join } from "node:path";
import { z } from "zod";
import { RUN_FILES } from "../../arena/run-directory.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import type { Environment } from "../../environments/environment.js";
import type { DeviceRecord } from "../../inference/device/device-record.js";
import type { TrainingEvaluation } from "../loop/training-checkpoint.js";
import type { TrainingConfiguration } from "../loop/training-configuration.js";
import type { TrainingStepMetrics } from "../loop/training-step-metrics.js";
import { trainingReportSvg } from "./training-report-svg.js";

/** What a finished run's report.json holds. */
export interface TrainingReport extends Record<string, unknown> {
  environment: string;
  model: string;
  trainer: string;
  device: DeviceRecord;
  trainerThreads: number | null;
  steps: number;
  seed: number;
  frontier: { mode: string; prmPath?: string; reasons: Record<string, number> };
  heldOutAccuracy: { start: number | null; end: number | null };
  evaluations: TrainingEvaluation[];
  stepsWithoutTrainableRecords: number;
  finalModel: string;
}

export interface TrainingReportInput {
  directory: string;
  environment: Pick<Environment, "name" | "summariseRun">;
  modelPath: string;
  trainer: string;
  device: DeviceRecord;
  trainerThreads: number | undefined;
  configuration: TrainingConfiguration;
  evaluations: TrainingEvaluation[];
  finalModel: string;
}

const COLOURS = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"];

/**
 * report.json and report.svg of a finished run, from its metrics.jsonl (so a
 * resumed run's report covers the steps before the resume too): the figures a
 * user looks at first, the environment's own summary of the run
 * (`summariseRun`), and each role's reward and the held-out figure over steps.
 */
export async function writeTrainingReport(input: TrainingReportInput): Promise<TrainingReport> {
  const { directory, configuration, evaluations } = input;
  const { records } = await readJsonl(join(directory, RUN_FILES.metrics), z.record(z.string(), z.unknown()));
  const steps = records.flatMap((record) => (typeof record.rewards === "object" && record.rewards !== null ? [record as unknown as TrainingStepMetrics] : []));
  const reasons: Record<string, number> = {};
  for (const [reason, count] of steps.flatMap((line) => Object.entries(line.frontier.reasons))) reasons[reason] = (reasons[reason] ?? 0) + count;
  const report: TrainingReport = {
    environment: input.environment.name,
    model: input.modelPath,
    trainer: input.trainer,
    device: input.device,
    trainerThreads: input.trainerThreads ?? null,
    steps: configuration.steps,
    seed: configuration.seed,
    frontier: { mode: configuration.frontier.mode, ...(configuration.frontier.prmPath !== undefined && { prmPath: configuration.frontier.prmPath }), reasons },
    heldOutAccuracy: { start: evaluations[0]?.heldOutAccuracy ?? null, end: evaluations.at(-1)?.heldOutAccuracy ?? null },
    evaluations,
    stepsWithoutTrainableRecords: steps.filter((line) => line.skippedUpdate).length,
    ...input.environment.summariseRun?.(records),
    finalModel: input.finalModel,
  };
  await writeFileAtomic(join(directory, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  const roles = [...new Set(steps.flatMap((line) => Object.keys(line.rewards)))];
  await writeFileAtomic(
    join(directory, "report.svg"),
    trainingReportSvg(`selfplay train: ${input.environment.name}, ${configuration.frontier.mode === "prm" ? "PRM-weighted frontier" : "uniform prompts"}`, [
      ...roles.map((role, index) => ({ name: `${role} reward`, color: COLOURS[index % COLOURS.length] as string, points: steps.map((line) => ({ step: line.step, value: line.rewards[role] ?? 0 })) })),
      { name: "held-out accuracy", color: "#2ca02c", points: evaluations.map((entry) => ({ step: entry.step, value: entry.heldOutAccuracy })) },
    ]),
  );
  return report;
}
