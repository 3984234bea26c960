import { InvalidInputError } from "../../../core/errors/index.js";

/**
 * A move that the board does not allow: a cell outside 1–9, one already
 * marked, or any move once the game is over. The policy's moves are parsed
 * against the board first (an unparsable one forfeits the game), so this is
 * raised for an opening or a caller's move, never for a sampled one.
 */
export class IllegalMoveError extends InvalidInputError {
  override readonly name = "IllegalMoveError";
  constructor(cell: number, allowed: readonly number[]) {
    super("move", allowed.length === 0 ? "no move: the game is over" : `an empty cell of the board, one of ${allowed.join(", ")}`, cell);
  }
}
