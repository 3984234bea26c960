import { InvalidInputError } from "../../core/errors/index.js";
import { checkScoredLabels } from "./check-scored-labels.js";

/**
 * Expected calibration error over `bins` equal-width probability bins
 * ([0, 0.1), [0.1, 0.2) … [0.9, 1] for 10): Σ_bins (n_bin / n)·|mean label −
 * mean probability|. 0 when every bin's predictions match its outcomes on
 * average. NaN when empty.
 */
export function expectedCalibrationError(probabilities: readonly number[], labels: readonly number[], bins = 10): number {
  checkScoredLabels(probabilities, labels);
  if (!Number.isInteger(bins) || bins < 1) throw new InvalidInputError("bins", "a positive integer", bins);
  if (probabilities.length === 0) return Number.NaN;
  const counts = new Array<number>(bins).fill(0);
  const probabilitySums = new Array<number>(bins).fill(0);
  const labelSums = new Array<number>(bins).fill(0);
  probabilities.forEach((probability, index) => {
    // Probability 1 belongs to the last bin, whose upper edge is inclusive.
    const bin = Math.min(Math.floor(probability * bins), bins - 1);
    counts[bin] = (counts[bin] as number) + 1;
    probabilitySums[bin] = (probabilitySums[bin] as number) + probability;
    labelSums[bin] = (labelSums[bin] as number) + (labels[index] as number);
  });
  let error = 0;
  counts.forEach((count, bin) => {
    if (count > 0) error += Math.abs((labelSums[bin] as number) - (probabilitySums[bin] as number)) / probabilities.length;
  });
  return error;
}
