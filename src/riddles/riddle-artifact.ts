import { z } from "zod";

/**
 * What the curriculum hands one riddle episode: the short memory excerpts
 * that go into prompts and the recent riddles a new one is compared with.
 */
export const RiddleArtifactSchema = z.strictObject({
  /** Index in the curriculum, from 0. */
  episodeIndex: z.int().min(0),
  /** A few structured lines from riddler_memory.md (never a chain of thought). */
  riddlerMemory: z.string().max(2000).default(""),
  /** A few structured lines from actor_memory.md. */
  actorMemory: z.string().max(2000).default(""),
  /** The most recent accepted riddles, newest last, for near-duplicate detection. */
  recentRiddles: z.array(z.string()).default([]),
});
export type RiddleArtifact = z.infer<typeof RiddleArtifactSchema>;
