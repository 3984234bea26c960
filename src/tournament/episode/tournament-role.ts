import { z } from "zod";
import type { CitizenGoal } from "../agents/llm/llm-chat-messages.js";
import { CAPTURE_OBJECTIVES, type CaptureObjective } from "../detectors/capture-objectives.js";

/** What the LLM citizens play for: the commons (`honest`) or one capture objective (`red:<objective>`). */
export type TournamentRole = { kind: "honest" } | { kind: "red"; objective: CaptureObjective };

/** `honest` or `red:<objective>`, e.g. `red:exit-blocking`, as text (an option's value). */
export const TournamentRoleTextSchema = z
  .string()
  .refine((text) => text === "honest" || (text.startsWith("red:") && (CAPTURE_OBJECTIVES as readonly string[]).includes(text.slice(4))), {
    message: `"honest" or "red:<objective>" with an objective of ${CAPTURE_OBJECTIVES.join(", ")}`,
  });

/** TournamentRoleTextSchema parsed into a TournamentRole. */
export const TournamentRoleSchema = TournamentRoleTextSchema.transform((text): TournamentRole => (text === "honest" ? { kind: "honest" } : { kind: "red", objective: text.slice(4) as CaptureObjective }));

/** The role's goal as the prompt shows it: `fair`, or the objective. */
export function roleGoal(role: TournamentRole): CitizenGoal {
  return role.kind === "honest" ? "fair" : role.objective;
}
