import { InvalidInputError } from "../../core/errors/index.js";

/** Throws unless scores and labels pair up and every one is a number in [0, 1] (scores may be any finite number when `anyScore`). */
export function checkScoredLabels(scores: readonly number[], labels: readonly number[], anyScore = false): void {
  if (scores.length !== labels.length) throw new InvalidInputError("labels", `one label per score (${scores.length})`, labels.length);
  scores.forEach((score, index) => {
    if (!Number.isFinite(score) || (!anyScore && (score < 0 || score > 1))) {
      throw new InvalidInputError(`scores.${index}`, anyScore ? "a finite number" : "a probability in [0, 1]", score);
    }
  });
  labels.forEach((label, index) => {
    if (!(label >= 0 && label <= 1)) throw new InvalidInputError(`labels.${index}`, "a label in [0, 1]", label);
  });
}
