import type { GenerateResult } from "../../core/schemas/generate-result.js";

/**
 * R-Zero's repetition penalty on one draw's proposals: a valid problem written
 * n times in the draw loses `weight` × (n − 1) / n of its proposer reward on
 * each copy — nothing for a problem written once, half the weight for a pair,
 * nearly all of it for a problem the proposer keeps writing. Without it the
 * proposer collapses onto a few problems a cluster (`11-11`, `3+1`) that the
 * solvers learn by heart, and held-out accuracy falls after its peak. Copies
 * are the same problem text; invalid and failed proposals are left as scored.
 */
export function penaliseRepeatedProposals(results: readonly GenerateResult[], weight: number): GenerateResult[] {
  if (weight === 0) return [...results];
  const copies = new Map<string, number>();
  for (const result of results) {
    const problem = validProblem(result);
    if (problem !== undefined) copies.set(problem, (copies.get(problem) ?? 0) + 1);
  }
  return results.map((result) => {
    const problem = validProblem(result);
    const count = problem === undefined ? 1 : (copies.get(problem) as number);
    if (count === 1 || result.rewards.proposer === undefined) return result;
    const penalty = (weight * (count - 1)) / count;
    return {
      ...result,
      rewards: { ...result.rewards, proposer: result.rewards.proposer - penalty },
      scoreDetails: { ...result.scoreDetails, copiesInDraw: count, repetitionPenalty: penalty },
    };
  });
}

/** The problem of a scored, valid proposal; undefined otherwise. */
function validProblem(result: GenerateResult): string | undefined {
  const { artifacts } = result.rollout;
  if (result.outcome.status !== "scored" || artifacts.verdict !== "valid" || typeof artifacts.problem !== "string") return undefined;
  return artifacts.problem;
}
