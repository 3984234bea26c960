import { gaussianSolveRateReward } from "../../core/rewards/gaussian-solve-rate-reward.js";
import type { RiddleConfig } from "../riddle-config.js";
import { riddleSimilarity } from "../riddle-similarity.js";

/** How close a riddle is to the recent ones. */
export interface DuplicateCheck {
  similarity: number;
  nearDuplicate: boolean;
  /** The most similar recent riddle, or null when there are none. */
  of: string | null;
}

/** The riddle's highest trigram-Jaccard similarity to the last `window` recent riddles. */
export function checkDuplicate(riddle: string, recentRiddles: readonly string[], duplicates: RiddleConfig["duplicates"]): DuplicateCheck {
  let best: DuplicateCheck = { similarity: 0, nearDuplicate: false, of: null };
  for (const recent of recentRiddles.slice(-duplicates.window)) {
    const similarity = riddleSimilarity(riddle, recent);
    if (best.of === null || similarity > best.similarity) best = { similarity, nearDuplicate: false, of: recent };
  }
  return { ...best, nearDuplicate: best.of !== null && best.similarity >= duplicates.threshold };
}

/** exp(−½((p − μ)/σ)²) of the solve rate, less the duplicate penalty for a near-duplicate. */
export function riddlerReward(solveRate: number, nearDuplicate: boolean, config: Pick<RiddleConfig, "reward" | "duplicates">): number {
  const reward = gaussianSolveRateReward(solveRate, { target: config.reward.targetSolveRate, sigma: config.reward.sigma });
  return nearDuplicate ? reward - config.duplicates.penalty : reward;
}
