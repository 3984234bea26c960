import { InvalidInputError } from "../../core/errors.js";
import type { ScoringContext } from "../../core/verifiers/verifier.js";

const refuse = (): never => {
  throw new InvalidInputError("verifier", "a verifier that scores without a judge: Monte-Carlo labels re-score thousands of continuations");
};

/** What a verifier gets when it re-scores a continuation: no children and no judge. */
export const NO_JUDGE_SCORING_CONTEXT: ScoringContext = {
  children: [],
  judge: async () => refuse(),
  judgeObject: async () => refuse(),
};
