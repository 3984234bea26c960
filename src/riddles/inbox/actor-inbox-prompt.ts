import type { Messages } from "../../core/schemas/message.js";
import type { RiddleProgress } from "../riddle-episode-hooks.js";

/**
 * The judge call that answers one inbox question: the actor's view of the run
 * (riddle, solvers so far, the last solver's answer) and the question. Kept
 * short: small models have small contexts.
 */
export function actorInboxPrompt(question: string, progress: RiddleProgress | null): Messages {
  const status =
    progress === null
      ? "Between two episodes."
      : [
          `Episode ${progress.episodeIndex}. Riddle: ${progress.riddle}`,
          `Solvers run ${progress.solversRun}/${progress.solversPlanned}, solved so far ${progress.solvedSoFar}.`,
          ...(progress.lastRun === null
            ? []
            : [`Last solver (${progress.lastRun.profile}) answered ${JSON.stringify(progress.lastRun.answer?.finalAnswer ?? "(no answer)")}: ${progress.lastRun.correct ? "correct" : "wrong"}.`]),
        ].join("\n");
  return [
    { role: "system", content: "You are the actor orchestrating riddle solvers. Answer the operator's question in a few sentences, from the status given." },
    { role: "user", content: `${status}\nQuestion: ${question}` },
  ];
}
