import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import type { Action } from "../world/actions.js";
import { parseSubmission, type Submission } from "../world/submission.js";
import { WorldConfigSchema, type WorldConfig } from "../world/tournament-world.js";

/**
 * A run as data: the kernel version it was played under, the world, and every
 * submission in order (`actions`, the name it has always had: actions legal
 * or not, and what was no action as `{malformed}` or `{notJson}` entries).
 */
export interface Transcript {
  kernelVersion: string;
  world: WorldConfig;
  actions: Submission[];
}

/** A transcript whose entries are all actions: what the shrinker returns and an exploit record holds. */
export type ActionTranscript = Omit<Transcript, "actions"> & { actions: Action[] };

export const TranscriptSchema = z.strictObject({
  kernelVersion: z.string().regex(/^\d+\.\d+\.\d+$/, "a kernel version like \"0.1.0\""),
  world: WorldConfigSchema.required(),
  actions: z.array(z.unknown()),
});

/** Validates a transcript from untrusted JSON; `source` prefixes every field name. A transcript of actions only (as written before malformed submissions were kept) reads as it always did. */
export function parseTranscript(value: unknown, source: string): Transcript {
  const parsed = parseInput(TranscriptSchema, value, { fieldName: (path) => `${source}: ${path.map(String).join(".") || "(root)"}` });
  return { kernelVersion: parsed.kernelVersion, world: parsed.world, actions: parsed.actions.map((entry, index) => parseSubmission(entry, `${source}: actions[${index}]`)) };
}
