import { z } from "zod";
import { IllegalMoveError } from "./errors/index.js";

/** The two seats, named for their marks: `x` moves first. */
export const SeatSchema = z.enum(["x", "o"]);
export type Seat = z.infer<typeof SeatSchema>;

/** A cell's mark, or null while it is empty. */
export type Mark = Seat | null;

/** Nine cells, row by row: index 0 is cell 1 (top left), index 8 cell 9 (bottom right). */
export type Board = readonly Mark[];

/** How a game ended: a seat's three in a row (or the other's forfeit), or a full board without one. */
export const GameOutcomeSchema = z.enum(["x", "o", "draw"]);
export type GameOutcome = z.infer<typeof GameOutcomeSchema>;

/** The eight lines of three, as cell indices (0–8): rows, columns, diagonals. */
export const LINES: readonly (readonly [number, number, number])[] = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

export const EMPTY_BOARD: Board = Array.from({ length: 9 }, () => null);

export function otherSeat(seat: Seat): Seat {
  return seat === "x" ? "o" : "x";
}

/** The seat to move: `x` when both have marked as many cells, else `o`. */
export function sideToMove(board: Board): Seat {
  const marks = board.filter((mark) => mark !== null).length;
  return marks % 2 === 0 ? "x" : "o";
}

/** The empty cells' numbers (1–9), ascending: the legal moves while the game is not over. */
export function emptyCells(board: Board): number[] {
  return board.flatMap((mark, index) => (mark === null ? [index + 1] : []));
}

/** The winner, `"draw"` for a full board without a line, or undefined while the game goes on. */
export function outcomeOf(board: Board): GameOutcome | undefined {
  for (const [a, b, c] of LINES) {
    const mark = board[a];
    if (mark !== null && mark !== undefined && mark === board[b] && mark === board[c]) return mark;
  }
  return board.every((mark) => mark !== null) ? "draw" : undefined;
}

/** The cells that are legal now: the empty ones, or none once the game is over. */
export function legalMoves(board: Board): number[] {
  return outcomeOf(board) === undefined ? emptyCells(board) : [];
}

/** The board after the side to move marks `cell` (1–9); IllegalMoveError for a marked or missing cell, or a game already over. */
export function playMove(board: Board, cell: number): Board {
  const allowed = legalMoves(board);
  if (!allowed.includes(cell)) throw new IllegalMoveError(cell, allowed);
  const next = [...board];
  next[cell - 1] = sideToMove(board);
  return next;
}

/** The board after `moves` (cells 1–9) from the empty board, X first. */
export function boardAfter(moves: readonly number[]): Board {
  return moves.reduce(playMove, EMPTY_BOARD);
}
