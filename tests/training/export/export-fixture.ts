import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import type { Messages } from "../../../src/core/schemas/message.js";
import { failedResult, makeRollout, makeStep, scoredResult } from "../../helpers/make-step.js";

/** Records as JSONL text, one a line. */
export const jsonl = (records: readonly object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join("");

/** The solver's prompt: a system message and the question (two messages, non-ASCII text), so the nested columns have depth. */
export const SYSTEM = { role: "system" as const, content: "Réponds avec le nombre — 数字だけ." };
export const ask = (question: string): Messages => [SYSTEM, { role: "user", content: question }];
export const PROPOSE: Messages = [{ role: "user", content: "propose a sum" }];
export const assistant = (content: string) => [{ role: "assistant", content }];

/** How apache-arrow prints a chat-messages column's type. */
export const MESSAGES_TYPE = "List<Struct<{role:Utf8, content:Utf8}>>";

function solve(id: string, groupId: string, question: string, expected: string, answer: string, reward: number): GenerateResult {
  const step = makeStep("solver", answer, { prompt: ask(question) });
  return scoredResult(makeRollout({ id, episodeType: "solve", groupId, steps: [step], artifacts: { answer, expected } }), { solver: reward });
}

function propose(id: string, problem: string, reward: number, children: GenerateResult[]): GenerateResult {
  const rollout = makeRollout({ id, episodeType: "propose", groupId: id, steps: [makeStep("proposer", problem, { prompt: PROPOSE })], artifacts: { problem } });
  return { ...scoredResult(rollout, { proposer: reward }), children };
}

/**
 * A run's rollouts.jsonl lines as selfplay run or train writes them: a proposal whose three solvers split (4, 5, and 4
 * with a space), a proposal whose two solvers both fail (a tie), a proposal that failed (no rewards), and a lone solver
 * (a group of one). Solvers record their ground truth as `artifacts.expected`; proposals record none.
 */
export const EXPORT_RESULTS: readonly GenerateResult[] = [
  propose("ep0", "2+2", 0.25, [solve("ep0.0", "ep0/solve", "2+2=", "4", "4", 1), solve("ep0.1", "ep0/solve", "2+2=", "4", "5", 0), solve("ep0.2", "ep0/solve", "2+2=", "4", " 4", 1)]),
  propose("ep1", "3+3", 0.1, [solve("ep1.0", "ep1/solve", "3+3=", "6", "7", 0), solve("ep1.1", "ep1/solve", "3+3=", "6", "5", 0)]),
  failedResult(makeRollout({ id: "ep2", episodeType: "propose", groupId: "ep2", steps: [makeStep("proposer", "??", { prompt: PROPOSE })] })),
  solve("ep3", "ep3", "7+1=", "8", "8", 1),
];
