import { expect } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import type { Step } from "../../../src/core/schemas/step.js";
import { boardAfter, outcomeOf, sideToMove, type Board } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";

/**
 * Expects every result a whole game played to its end: scored, no forfeit, the
 * recorded winner the board's (boardAfter refuses an illegal move, so every
 * one was legal), one constrained Step a move after the opening, each of the
 * side to move. `eachStep` checks a Step further, given the board it saw and its move.
 */
export function expectWholeGames(results: readonly GenerateResult[], eachStep: (step: Step, board: Board, move: number) => void): void {
  for (const result of results) {
    expect(result.outcome).toEqual({ status: "scored" });
    const { moves, winner, forfeitedBy } = result.rollout.artifacts as { moves: number[]; winner: string; forfeitedBy: string | null };
    expect(forfeitedBy).toBeNull();
    expect(outcomeOf(boardAfter(moves))).toBe(winner);
    const opening = (result.rollout.artifact as { opening: number[] }).opening.length;
    expect(result.rollout.steps).toHaveLength(moves.length - opening);
    result.rollout.steps.forEach((step, index) => {
      const board = boardAfter(moves.slice(0, opening + index));
      expect(step.roleId).toBe(sideToMove(board));
      expect(step.constrained).toBe(true);
      eachStep(step, board, moves[opening + index] as number);
    });
  }
}
