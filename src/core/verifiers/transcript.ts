import type { Rollout } from "../schemas/rollout.js";

/** The rollout's turns as `roleId: text` paragraphs, for a judge to read. */
export function formatTranscript(rollout: Rollout): string {
  return rollout.steps
    .map((step) => `${step.roleId}: ${step.completion.map((message) => message.content).join("")}`)
    .join("\n\n");
}
