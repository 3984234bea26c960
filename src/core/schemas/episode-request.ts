import { z } from "zod";
import { JsonValueSchema } from "../json.js";

/** One unit of workload: which episode to run, on which artifact, in which group. */
export const EpisodeRequestSchema = z.object({
  episodeType: z.string().min(1),
  /** The episode's input (a topic, a question…); absent when the episode makes its own. */
  artifact: JsonValueSchema.optional(),
  /** Requests sharing a groupId are compared with each other by group credit assigners. */
  groupId: z.string().min(1).optional(),
});
export type EpisodeRequest = z.infer<typeof EpisodeRequestSchema>;
