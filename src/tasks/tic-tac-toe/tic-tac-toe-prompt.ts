import type { Constraint } from "../../core/schemas/constraint.js";
import type { Messages } from "../../core/schemas/message.js";
import { emptyCells, type Board, type Seat } from "./tic-tac-toe-board.js";

/**
 * What the side to move sees: a system line with the rules and its seat, and
 * a user message with the board (marked cells as X and O, empty ones as their
 * numbers, 1–9 row by row) and whose turn it is. Short, since every move
 * reads its whole prompt again: 84 tokens on SmolLM2, and the bundled base
 * (256 positions, a token a byte) reads it too.
 */
export function ticTacToeMessages(board: Board, seat: Seat): Messages {
  const mark = seat.toUpperCase();
  const cell = (index: number) => board[index]?.toUpperCase() ?? String(index + 1);
  const rows = [0, 3, 6].map((start) => [start, start + 1, start + 2].map(cell).join(" | "));
  return [
    {
      role: "system",
      content: `Tic-tac-toe: X and O take turns marking an empty cell; three in a row, column or diagonal wins. You play ${mark}. Reply with a cell number.`,
    },
    { role: "user", content: `${rows.join("\n")}\nYou are ${mark}, to move.` },
  ];
}

/** A GBNF grammar whose only sentences are the empty cells' digits: under it every sampled move is legal. */
export function legalMovesGrammar(board: Board): Constraint {
  return { kind: "grammar", gbnf: `root ::= [${emptyCells(board).join("")}]` };
}

/**
 * The cell a completion marks: its text, trimmed, must be the digit of an
 * empty cell. Anything else (possible only off the grammar: a client that
 * ignores it, a completion cut short) is undefined, and the game is forfeit.
 */
export function parseMove(text: string, board: Board): number | undefined {
  const move = text.trim();
  if (!/^[1-9]$/.test(move)) return undefined;
  const cell = Number(move);
  return emptyCells(board).includes(cell) ? cell : undefined;
}
