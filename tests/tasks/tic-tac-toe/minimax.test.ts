import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { FIXED_PLAYERS } from "../../../src/tasks/tic-tac-toe/fixed-players.js";
import { bestMoves, minimaxValue } from "../../../src/tasks/tic-tac-toe/minimax.js";
import { boardAfter, EMPTY_BOARD, legalMoves, outcomeOf, playMove, sideToMove, type Board, type Seat } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";

/** Every position a legal game reaches, the empty board included. */
function reachablePositions(): Board[] {
  const seen = new Map<string, Board>();
  const visit = (board: Board) => {
    const key = board.map((mark) => mark ?? "-").join("");
    if (seen.has(key)) return;
    seen.set(key, board);
    for (const cell of legalMoves(board)) visit(playMove(board, cell));
  };
  visit(EMPTY_BOARD);
  return [...seen.values()];
}

/** A whole game between two fixed players; the outcome. */
function play(x: keyof typeof FIXED_PLAYERS, o: keyof typeof FIXED_PLAYERS, random: RandomStream): Seat | "draw" {
  let board = EMPTY_BOARD;
  for (;;) {
    const outcome = outcomeOf(board);
    if (outcome !== undefined) return outcome;
    board = playMove(board, FIXED_PLAYERS[sideToMove(board) === "x" ? x : o].move(board, random));
  }
}

describe("minimax", () => {
  it("values the empty board a draw, and every opening move too", () => {
    expect(minimaxValue(EMPTY_BOARD)).toBe(0);
    expect(bestMoves(EMPTY_BOARD)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("finds forced wins: an immediate one, and X's after O answers a corner with an adjacent edge", () => {
    // X on 1 and 2, O on 4 and 5: X to move wins at 3 at once; O's threat on 6 makes every other move a loss.
    const immediate = boardAfter([1, 4, 2, 5]);
    expect(minimaxValue(immediate)).toBe(1);
    expect(bestMoves(immediate)).toEqual([3]);
    // X in a corner, O on the adjacent edge: a forced win for X, but not by every move.
    const adjacentEdge = boardAfter([1, 2]);
    expect(minimaxValue(adjacentEdge)).toBe(1);
    const winning = bestMoves(adjacentEdge);
    expect(winning).toContain(5);
    expect(winning).not.toContain(3);
    // And O, to move after X's centre reply, is lost.
    expect(minimaxValue(playMove(adjacentEdge, 5))).toBe(-1);
  });

  it("is exact on all 5,478 legal positions: a finished game is lost for the side to move or drawn, any other is the best of its children", () => {
    const positions = reachablePositions();
    expect(positions).toHaveLength(5478);
    for (const board of positions) {
      const outcome = outcomeOf(board);
      if (outcome !== undefined) {
        expect(minimaxValue(board)).toBe(outcome === "draw" ? 0 : -1);
        expect(bestMoves(board)).toEqual([]);
        continue;
      }
      const children = legalMoves(board).map((cell) => 0 - minimaxValue(playMove(board, cell)));
      expect(minimaxValue(board)).toBe(Math.max(...children));
      expect(bestMoves(board).length).toBeGreaterThan(0);
    }
  });

  it("as a player never loses: against the random player in both seats, and draws against itself", () => {
    const random = new RandomStream("minimax-games");
    const outcomes = { x: [] as string[], o: [] as string[] };
    for (let game = 0; game < 300; game++) {
      outcomes.x.push(play("minimax", "random", random));
      outcomes.o.push(play("random", "minimax", random));
      expect(play("minimax", "minimax", random)).toBe("draw");
    }
    expect(outcomes.x).not.toContain("o");
    expect(outcomes.o).not.toContain("x");
    // And it does win against random play (most games as X).
    expect(outcomes.x.filter((outcome) => outcome === "x").length).toBeGreaterThan(200);
  });
});
