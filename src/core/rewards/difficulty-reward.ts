import { z } from "zod";
import { absoluteZeroReward } from "./absolute-zero-reward.js";
import { gaussianSolveRateReward } from "./gaussian-solve-rate-reward.js";
import { rZeroReward } from "./r-zero-reward.js";

/** Which difficulty-targeting reward turns a pass rate into a proposer's reward. */
export const DifficultyRewardSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("gaussian"),
    target: z.number().min(0).max(1).default(0.5),
    sigma: z.number().positive().default(0.1),
  }),
  z.strictObject({ kind: z.literal("absolute-zero") }),
  z.strictObject({ kind: z.literal("r-zero") }),
]);
export type DifficultyReward = z.infer<typeof DifficultyRewardSchema>;

export function difficultyReward(reward: DifficultyReward, passRate: number): number {
  switch (reward.kind) {
    case "gaussian":
      return gaussianSolveRateReward(passRate, reward);
    case "absolute-zero":
      return absoluteZeroReward(passRate);
    case "r-zero":
      return rZeroReward(passRate);
  }
}
