import { z } from "zod";
import { areaUnderRocCurve } from "./area-under-roc-curve.js";
import { brierScore } from "./brier-score.js";
import { clusterPriorScores, type ClusterLabel } from "./cluster-prior-scores.js";
import { expectedCalibrationError } from "./expected-calibration-error.js";

/** NaN (undefined metric) is written to JSON as null. */
const metric = z.number().nullable();

/** How well a PRM's probabilities match the labels of a held-out split. */
export const PrmMetricsSchema = z.object({
  /** Area under the ROC curve with soft labels (see areaUnderRocCurve); null when undefined. */
  auc: metric,
  /** Mean squared error of the probabilities; lower is better. */
  brier: metric,
  /** Expected calibration error over 10 bins; lower is better. */
  ece: metric,
  /** Examples evaluated. */
  n: z.number().int().min(0),
  /** The AUC of the per-cluster prior (mean training label of the example's cluster): the bar to clear. */
  baselineAuc: metric,
});
export type PrmMetrics = z.infer<typeof PrmMetricsSchema>;

const orNull = (value: number): number | null => (Number.isNaN(value) ? null : value);

/** The metrics of `probabilities` on `evaluated`, with the prior learned from `training` as the baseline. */
export function prmMetrics(probabilities: readonly number[], evaluated: readonly ClusterLabel[], training: readonly ClusterLabel[]): PrmMetrics {
  const labels = evaluated.map((example) => example.label);
  return {
    auc: orNull(areaUnderRocCurve(probabilities, labels)),
    brier: orNull(brierScore(probabilities, labels)),
    ece: orNull(expectedCalibrationError(probabilities, labels)),
    n: evaluated.length,
    baselineAuc: orNull(areaUnderRocCurve(clusterPriorScores(training, evaluated), labels)),
  };
}
