import { expect } from "vitest";
import type { TrainingStepMetrics } from "../../../src/training/loop/training-step-metrics.js";

/** Stands in for SIGKILL: thrown from the log phase of a step, after its metrics line, before its checkpoint. */
class KilledError extends Error {}

/** Runs `run` with an `onStep` that kills it during step `step`, and expects it to die of exactly that. */
export async function expectKilledDuringStep(step: number, run: (onStep: (line: TrainingStepMetrics) => void) => Promise<unknown>): Promise<void> {
  await expect(
    run((line) => {
      if (line.step === step) throw new KilledError(`killed during step ${step}`);
    }),
  ).rejects.toBeInstanceOf(KilledError);
}
