import { z } from "zod";
import { RiddleSchema } from "../riddle-contracts.js";
import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import { riddleId } from "../memory/riddle-id.js";

/** One line of `<out>/dataset.jsonl`: an accepted riddle, its solution and its measured solve rate. */
export const RiddleDatasetEntrySchema = z.strictObject({
  episode: z.int().min(0),
  domain: z.enum(["arithmetic", "free-form"]),
  riddleId: z.string(),
  ...RiddleSchema.shape,
  solveRate: z.number().min(0).max(1),
  solved: z.int().min(0),
  solverRuns: z.int().min(1),
  /** Near-duplicates stay in the dataset, flagged, so a consumer decides. */
  nearDuplicate: z.boolean(),
});
export type RiddleDatasetEntry = z.infer<typeof RiddleDatasetEntrySchema>;

/** The dataset line of an episode; null when it has no accepted riddle or no solver ran. */
export function riddleDatasetEntry(outcome: RiddleEpisodeOutcome): RiddleDatasetEntry | null {
  if (outcome.riddle === null || outcome.solveRate === null || outcome.solverRuns.length === 0) return null;
  return {
    episode: outcome.episodeIndex,
    domain: outcome.domain,
    riddleId: riddleId(outcome.riddle.riddle),
    ...outcome.riddle,
    solveRate: outcome.solveRate,
    solved: outcome.solved,
    solverRuns: outcome.solverRuns.length,
    nearDuplicate: outcome.duplicate.nearDuplicate,
  };
}
