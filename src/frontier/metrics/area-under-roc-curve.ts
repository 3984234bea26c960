import { checkScoredLabels } from "./check-scored-labels.js";

/**
 * Area under the ROC curve: the probability that a positive scores above a
 * negative, ties counting one half. Labels may be soft (a Monte-Carlo success
 * estimate in [0, 1]): an example is positive with weight y and negative with
 * weight 1 − y, and every ordered pair of distinct examples counts with weight
 * y_i·(1 − y_j). With 0/1 labels this is the usual AUC. NaN when no pair has
 * weight (every label the same 0 or 1, or fewer than two examples).
 * O(n log n): sort by score, sweep tie groups.
 */
export function areaUnderRocCurve(scores: readonly number[], labels: readonly number[]): number {
  checkScoredLabels(scores, labels, true);
  const order = scores.map((_, index) => index).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  let negativeBelow = 0;
  let concordant = 0;
  let selfPairs = 0;
  let positiveTotal = 0;
  let negativeTotal = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end < order.length && scores[order[end] as number] === scores[order[start] as number]) end++;
    let groupPositive = 0;
    let groupNegative = 0;
    for (let position = start; position < end; position++) {
      const label = labels[order[position] as number] as number;
      groupPositive += label;
      groupNegative += 1 - label;
      selfPairs += label * (1 - label);
    }
    concordant += groupPositive * (negativeBelow + 0.5 * groupNegative);
    negativeBelow += groupNegative;
    positiveTotal += groupPositive;
    negativeTotal += groupNegative;
    start = end;
  }
  // The sweep counted each example against itself as a tie; pairs are of distinct examples.
  const pairWeight = positiveTotal * negativeTotal - selfPairs;
  if (!(pairWeight > 1e-12)) return Number.NaN;
  return (concordant - 0.5 * selfPairs) / pairWeight;
}
