import { legalMoves, outcomeOf, playMove, type Board } from "./tic-tac-toe-board.js";

/** A position's game-theoretic value for the side to move: 1 a forced win, 0 a draw with best play, −1 a forced loss. */
export type PositionValue = -1 | 0 | 1;

// Every position reached is solved once: 5,478 legal positions in all (the empty board's search visits each).
const values = new Map<string, PositionValue>();

function keyOf(board: Board): string {
  return board.map((mark) => mark ?? "-").join("");
}

/**
 * The exact value of `board` for the side to move, by negamax over the whole
 * game tree, memoised by position. A finished game is worth −1 to the side to
 * move when the other seat has three in a row (its last move made them), 0 for
 * a draw.
 */
export function minimaxValue(board: Board): PositionValue {
  const key = keyOf(board);
  const known = values.get(key);
  if (known !== undefined) return known;
  const outcome = outcomeOf(board);
  let value: PositionValue;
  if (outcome !== undefined) value = outcome === "draw" ? 0 : -1;
  else value = Math.max(...legalMoves(board).map((cell) => valueOfMove(board, cell))) as PositionValue;
  values.set(key, value);
  return value;
}

/** The moves (cells 1–9) that keep the position's value: every move a perfect player may make. Empty once the game is over. */
export function bestMoves(board: Board): number[] {
  const moves = legalMoves(board);
  if (moves.length === 0) return [];
  const value = minimaxValue(board);
  return moves.filter((cell) => valueOfMove(board, cell) === value);
}

/** A move's value for the side making it: the other side's value after it, negated (as `0 − v`, so a draw is 0, never −0). */
function valueOfMove(board: Board, cell: number): PositionValue {
  return (0 - minimaxValue(playMove(board, cell))) as PositionValue;
}
