import type { Rollout } from "../schemas/rollout.js";

/**
 * The rollout's turns as `roleId: text` paragraphs, for a judge to read. With
 * `order` (two role ids), each round whose turns come as `order[1]` then
 * `order[0]` is shown as `order[0]` then `order[1]`: the transcript a judge
 * reads when the sides are presented the other way round (a swapped verdict).
 */
export function formatTranscript(rollout: Rollout, order?: readonly [string, string]): string {
  const steps = [...rollout.steps];
  if (order) {
    for (let index = 0; index + 1 < steps.length; index++) {
      const [turn, next] = [steps[index], steps[index + 1]];
      if (turn?.roleId === order[1] && next?.roleId === order[0]) {
        [steps[index], steps[index + 1]] = [next, turn];
        index++;
      }
    }
  }
  return steps.map((step) => `${step.roleId}: ${step.completion.map((message) => message.content).join("")}`).join("\n\n");
}
