import type { GenerateResult } from "../schemas/generate-result.js";

/**
 * A step's figures about its judges, from two `VerifierOutput.details` fields
 * any verifier may set: `positionConsistent` (boolean: the verdict, asked in
 * more than one presentation order, named the same winner in each) and
 * `judgeAgreement` (boolean: the policy, asked the same question, reached the
 * separate judge's verdict). The loop reports them for every environment, so
 * no task has to summarise its own judge and the loop names no task's verdicts.
 */
export interface JudgingFigures {
  /** Share of the verdicts asked in swapped orders that survived the swap (a flip is a tie, no reward either way); null when none was. */
  positionConsistency: number | null;
  /** Verdicts asked in swapped orders (the denominator of positionConsistency). */
  swappedVerdicts: number;
  /** Share of the verdicts where the policy as judge agreed with the separate judge (`--judge-model`); null when none was compared. */
  judgeAgreement: number | null;
  /** Verdicts the policy was also asked for (the denominator of judgeAgreement). */
  comparedVerdicts: number;
}

/** The judging figures of scored results, sub-episodes included; undefined when no verifier set either field. */
export function judgingFigures(results: readonly GenerateResult[]): JudgingFigures | undefined {
  const consistent: boolean[] = [];
  const agreed: boolean[] = [];
  const visit = (result: GenerateResult) => {
    if (result.outcome.status === "scored") {
      const { positionConsistent, judgeAgreement } = result.scoreDetails;
      if (typeof positionConsistent === "boolean") consistent.push(positionConsistent);
      if (typeof judgeAgreement === "boolean") agreed.push(judgeAgreement);
    }
    result.children.forEach(visit);
  };
  results.forEach(visit);
  if (consistent.length === 0 && agreed.length === 0) return undefined;
  const share = (flags: readonly boolean[]) => (flags.length === 0 ? null : flags.filter(Boolean).length / flags.length);
  return { positionConsistency: share(consistent), swappedVerdicts: consistent.length, judgeAgreement: share(agreed), comparedVerdicts: agreed.length };
}
