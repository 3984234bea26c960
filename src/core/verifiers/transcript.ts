import type { Rollout } from "../schemas/rollout.js";

/**
 * The rollout's turns as `name: text` paragraphs, for a judge to read; a
 * turn's name is its role id, or `names[roleId]` where `names` gives one (a
 * judge that names the sides by position reads `A: …` and `B: …`). With
 * `order` (two role ids), a rollout whose first turn is `order[1]`'s is shown
 * with each round (an `order[1]` turn and the `order[0]` turn after it) the
 * other way round: the transcript a judge reads when the sides are presented
 * in the other order, for a swapped verdict. A rollout that opens with
 * `order[0]` is shown as it was played.
 */
export function formatTranscript(rollout: Rollout, order?: readonly [string, string], names?: Readonly<Record<string, string>>): string {
  const steps = [...rollout.steps];
  if (order && steps[0]?.roleId === order[1]) {
    for (let index = 0; index + 1 < steps.length; index++) {
      const [turn, next] = [steps[index], steps[index + 1]];
      if (turn?.roleId === order[1] && next?.roleId === order[0]) {
        [steps[index], steps[index + 1]] = [next, turn];
        index++;
      }
    }
  }
  // Own keys only: a role id such as "constructor" is not a name `{}` inherits.
  const nameOf = (roleId: string) => (names && Object.hasOwn(names, roleId) ? (names[roleId] as string) : roleId);
  return steps.map((step) => `${nameOf(step.roleId)}: ${step.completion.map((message) => message.content).join("")}`).join("\n\n");
}
