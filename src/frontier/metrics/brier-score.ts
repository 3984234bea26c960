import { checkScoredLabels } from "./check-scored-labels.js";

/** Mean squared error of probabilities against (possibly soft) labels; 0 is perfect, 0.25 is always saying 0.5. NaN when empty. */
export function brierScore(probabilities: readonly number[], labels: readonly number[]): number {
  checkScoredLabels(probabilities, labels);
  if (probabilities.length === 0) return Number.NaN;
  let total = 0;
  probabilities.forEach((probability, index) => (total += (probability - (labels[index] as number)) ** 2));
  return total / probabilities.length;
}
