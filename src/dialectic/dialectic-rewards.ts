import { InvalidRewardError } from "../core/errors/index.js";
import type { DialecticOutcome } from "./dialectic-outcome.js";
import type { DialecticRound } from "./dialectic-round.js";

/**
 * The proposer's reward: the critics' score of what the loop returned, plus
 * `improvementWeight` × how far it rose above the first round's score
 * (negative when it fell). In [−w, 1 + w].
 */
export function proposerReward(outcome: Pick<DialecticOutcome, "finalScore" | "rounds">, improvementWeight: number): number {
  const first = (outcome.rounds[0] as DialecticRound).critique.score;
  return outcome.finalScore + improvementWeight * (outcome.finalScore - first);
}

/**
 * A trainable critic's reward: how well its scores agree with the independent
 * check, 1 − (score − check)² averaged over every critique it wrote (the Brier
 * score turned into a reward, which a critic maximises by reporting what it
 * believes). It never depends on the proposer's reward, so a critic gains
 * nothing by refusing to approve.
 */
export function criticAgreementReward(rounds: readonly DialecticRound[]): number {
  let total = 0;
  let count = 0;
  for (const round of rounds) {
    if (round.check === null) {
      throw new InvalidRewardError(`round ${round.round} has no independent check, so the critic cannot be rewarded`);
    }
    for (const member of round.critics) {
      total += 1 - (member.score - round.check) ** 2;
      count++;
    }
  }
  return total / count;
}
