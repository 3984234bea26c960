import { describe, expect, it } from "vitest";
import { IllegalMoveError } from "../../../src/tasks/tic-tac-toe/errors/index.js";
import { boardAfter, EMPTY_BOARD, emptyCells, legalMoves, LINES, outcomeOf, playMove, sideToMove, type Board } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";

/** A board from a picture: rows of `X`, `O` and `.`. */
function board(picture: string): Board {
  return [...picture.replace(/\s/g, "")].map((mark) => (mark === "X" ? "x" : mark === "O" ? "o" : null));
}

describe("the tic-tac-toe board", () => {
  it("gives each seat the win on every one of the eight lines, and nothing on a board with no line", () => {
    expect(LINES).toHaveLength(8);
    for (const seat of ["x", "o"] as const) {
      for (const line of LINES) {
        const cells: Board = EMPTY_BOARD.map((_, index) => (line.includes(index) ? seat : null));
        expect(outcomeOf(cells), `${seat} on ${line.join(",")}`).toBe(seat);
      }
    }
    // Two of a mark on each line, none complete.
    expect(outcomeOf(board("XX. OO. ...."))).toBeUndefined();
    expect(outcomeOf(EMPTY_BOARD)).toBeUndefined();
  });

  it("calls a full board without a line a draw, and a full board with one a win", () => {
    expect(outcomeOf(board("XOX XOO OXX"))).toBe("draw");
    expect(outcomeOf(board("XXX OOX OXO"))).toBe("x");
  });

  it("plays X first and then alternates; the moves are the empty cells", () => {
    const after = boardAfter([5, 1, 9]);
    expect(after).toEqual(board("O.. .X. ..X"));
    expect(sideToMove(EMPTY_BOARD)).toBe("x");
    expect(sideToMove(after)).toBe("o");
    expect(emptyCells(after)).toEqual([2, 3, 4, 6, 7, 8]);
    expect(legalMoves(after)).toEqual([2, 3, 4, 6, 7, 8]);
  });

  it("refuses a marked cell, a cell off the board and any move once the game is over, naming what is allowed", () => {
    const after = boardAfter([5, 1]);
    expect(() => playMove(after, 5)).toThrow(IllegalMoveError);
    expect(() => playMove(after, 5)).toThrow("move: got 5; expected an empty cell of the board, one of 2, 3, 4, 6, 7, 8, 9");
    expect(() => playMove(after, 0)).toThrow(IllegalMoveError);
    expect(() => playMove(after, 10)).toThrow(IllegalMoveError);
    expect(() => playMove(after, 2.5)).toThrow(IllegalMoveError);
    const won = boardAfter([1, 4, 2, 5, 3]);
    expect(outcomeOf(won)).toBe("x");
    expect(legalMoves(won)).toEqual([]);
    expect(() => playMove(won, 9)).toThrow("move: got 9; expected no move: the game is over");
    // The board it was given is left as it was.
    expect(after).toEqual(boardAfter([5, 1]));
  });
});
