import { z } from "zod";
import { parseInput } from "../../core/parse-input.js";
import { parseAction, type Action } from "../world/actions.js";
import { WorldConfigSchema, type WorldConfig } from "../world/tournament-world.js";

/** A run as data: the kernel version it was played under, the world, and every action submitted in order. */
export interface Transcript {
  kernelVersion: string;
  world: WorldConfig;
  actions: Action[];
}

export const TranscriptSchema = z.strictObject({
  kernelVersion: z.string().regex(/^\d+\.\d+\.\d+$/, "a kernel version like \"0.1.0\""),
  world: WorldConfigSchema.required(),
  actions: z.array(z.unknown()),
});

/** Validates a transcript from untrusted JSON; `source` prefixes every field name. */
export function parseTranscript(value: unknown, source: string): Transcript {
  const parsed = parseInput(TranscriptSchema, value, { fieldName: (path) => `${source}: ${path.map(String).join(".") || "(root)"}` });
  return { kernelVersion: parsed.kernelVersion, world: parsed.world, actions: parsed.actions.map((action, index) => parseAction(action, `${source}: actions[${index}]`)) };
}
