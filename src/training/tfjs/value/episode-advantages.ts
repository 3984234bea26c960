import { InvalidInputError } from "../../../core/errors/index.js";
import type { TrainingRecord } from "../../../core/schemas/training-record.js";
import { generalizedAdvantageEstimation } from "../../update/generalized-advantage-estimation.js";
import { concatenateArrays } from "../../update/concatenate-arrays.js";

export interface EpisodeAdvantageOptions {
  /** γ: 1 for episodes that end (no reason to prefer early tokens). */
  discount: number;
  /** λ: the bias–variance trade of GAE (1 = Monte Carlo returns minus values). */
  lambda: number;
}

/** Per record, one entry per completion token. */
export interface EpisodeAdvantages {
  advantages: Float64Array[];
  /** advantages + values: the value head's targets. */
  returns: Float64Array[];
}

/**
 * GAE per episode of a role: the trained tokens of a role's Steps in one
 * rollout (records with the same `rolloutId` and `roleId`), concatenated in
 * `stepIndex` order, form one trajectory whose only reward, the role's
 * reward in the rollout, arrives at its last token. Steps left out of
 * training (constrained, greedy) are simply absent from the trajectory.
 */
export function episodeAdvantages(records: readonly TrainingRecord[], values: readonly Float64Array[], options: EpisodeAdvantageOptions): EpisodeAdvantages {
  if (values.length !== records.length) throw new InvalidInputError("values", `one array per record (${records.length})`, `${values.length} arrays`);
  const episodes = new Map<string, number[]>();
  records.forEach((record, index) => {
    // JSON of the pair cannot collide the way a joined string could.
    const key = JSON.stringify([record.rolloutId, record.roleId]);
    const members = episodes.get(key);
    if (members) members.push(index);
    else episodes.set(key, [index]);
  });
  const advantages = new Array<Float64Array>(records.length);
  const returns = new Array<Float64Array>(records.length);
  for (const members of episodes.values()) {
    members.sort((left, right) => (records[left] as TrainingRecord).stepIndex - (records[right] as TrainingRecord).stepIndex);
    members.forEach((index, position) => {
      const record = records[index] as TrainingRecord;
      const previous = position > 0 ? (records[members[position - 1] as number] as TrainingRecord) : undefined;
      if (previous?.stepIndex === record.stepIndex) {
        throw new InvalidInputError(`records[${index}].stepIndex`, `one record per step of rollout "${record.rolloutId}" and role "${record.roleId}"`, record.stepIndex);
      }
      const count = (values[index] as Float64Array).length;
      if (count !== record.completionTokenIds.length) {
        throw new InvalidInputError(`values[${index}].length`, `${record.completionTokenIds.length}, one per completion token`, count);
      }
    });
    const trajectoryValues = concatenateArrays(members.map((index) => values[index] as Float64Array));
    const rewards = new Float64Array(trajectoryValues.length);
    const last = records[members[members.length - 1] as number] as TrainingRecord;
    if (rewards.length > 0) rewards[rewards.length - 1] = last.reward;
    const estimate = generalizedAdvantageEstimation(rewards, trajectoryValues, options.discount, options.lambda);
    let offset = 0;
    for (const index of members) {
      const count = (values[index] as Float64Array).length;
      advantages[index] = estimate.advantages.slice(offset, offset + count);
      returns[index] = estimate.returns.slice(offset, offset + count);
      offset += count;
    }
  }
  return { advantages, returns };
}

