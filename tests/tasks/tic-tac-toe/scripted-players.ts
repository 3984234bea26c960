import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { RandomStream } from "../../../src/core/random/random-stream.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../../src/inference/scripted-inference-client.js";
import { bestMoves } from "../../../src/tasks/tic-tac-toe/minimax.js";
import type { Board } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";

/** The board a move request shows, read back from its user message (marks as X and O, empty cells as their numbers). */
export function boardOfRequest(request: GenerationRequest): Board {
  const rows = (request.messages[1]?.content ?? "").split("\n").slice(0, 3);
  return rows.flatMap((row) => row.split(" | ")).map((cell) => (cell === "X" ? "x" : cell === "O" ? "o" : null));
}

/** The cells a request's grammar allows, from its character class (`root ::= [2346789]`). */
export function grammarCells(request: GenerationRequest): number[] {
  const gbnf = request.constraint?.kind === "grammar" ? request.constraint.gbnf : "";
  return [.../\[(\d+)\]/.exec(gbnf)?.[1] ?? ""].map(Number);
}

/** A scripted player as a rule: `choose` gets the request (its board, its grammar) and the seeded stream. */
export function player(seat: "X" | "O" | "any", choose: (request: GenerationRequest, random: RandomStream) => string): ScriptedRule {
  return { when: (request) => seat === "any" || (request.messages[0]?.content.includes(`You play ${seat}.`) ?? false), reply: choose };
}

/** Marks the lowest cell the grammar allows. */
export const lowestCell = (request: GenerationRequest) => String(grammarCells(request)[0]);
/** Marks one of the allowed cells, drawn from the call's seeded stream. */
export const randomCell = (request: GenerationRequest, random: RandomStream) => String(random.pick(grammarCells(request)));
/** Marks the first cell of `order` that the grammar allows. */
export const preferredCell = (order: readonly number[]) => (request: GenerationRequest) => String(order.find((cell) => grammarCells(request).includes(cell)));
/** Marks the lowest of minimax's best moves on the board shown. */
export const perfectCell = (request: GenerationRequest) => String(bestMoves(boardOfRequest(request))[0]);

/** A scripted client that takes grammars (it ignores them: its rules choose legal moves, or not, themselves). */
export function scriptedPlayers(...rules: ScriptedRule[]): ScriptedInferenceClient {
  return new ScriptedInferenceClient({ rules, capabilities: { grammars: true } });
}
