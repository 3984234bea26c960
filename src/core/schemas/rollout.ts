import { z } from "zod";
import { JsonObjectSchema, JsonValueSchema } from "../json.js";
import { StepSchema } from "./step.js";

/** The complete trace of one episode execution. */
export const RolloutSchema = z.object({
  /** Deterministic id derived from the episode's position in the run (e.g. `ep7`, `ep7.2`). */
  id: z.string().min(1),
  episodeType: z.string().min(1),
  groupId: z.string().min(1),
  /** The artifact the episode ran on (spec: `seed`). */
  artifact: JsonValueSchema,
  steps: z.array(StepSchema),
  /** Summary values extracted by `Episode.finalize` for the verifier. */
  artifacts: JsonObjectSchema,
});
export type Rollout = z.infer<typeof RolloutSchema>;
