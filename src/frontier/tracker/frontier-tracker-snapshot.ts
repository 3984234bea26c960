import { z } from "zod";
import { RandomStreamStateSchema } from "../../core/random/random-stream.js";
import { ClusterHistorySnapshotSchema } from "./cluster-history.js";

/** A FrontierTracker's state (`snapshot()`), for checkpoints: restored, it continues exactly. */
export const FrontierTrackerSnapshotSchema = z.object({
  histories: z.record(z.string(), ClusterHistorySnapshotSchema),
  /** Decisions so far by reason and `fallback:` kind. */
  decisions: z.record(z.string(), z.number().int().min(0)),
  /** Clean outcomes in a row (drives the cooldown). */
  cleanStreak: z.number().int().min(0),
  /** The generator every draw comes from, where the next draw takes it up. */
  random: RandomStreamStateSchema,
});
export type FrontierTrackerSnapshot = z.infer<typeof FrontierTrackerSnapshotSchema>;
