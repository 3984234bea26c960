import type { RandomStream } from "../../core/random/random-stream.js";
import { legalMoves, type Board } from "./tic-tac-toe-board.js";
import { bestMoves } from "./minimax.js";

/** A player the environment computes, never a model call: the evaluation's fixed opponents. */
export interface FixedPlayer {
  /** The move (a cell, 1–9) for the side to move; `random` breaks its ties, so a seeded game replays exactly. */
  move(board: Board, random: RandomStream): number;
}

/** The evaluation's opponents, by the name its figures carry: uniformly random legal moves, and a perfect player (uniform among the minimax-optimal moves, so it never loses). */
export const FIXED_PLAYERS = {
  random: { move: (board, random) => random.pick(legalMoves(board)) },
  minimax: { move: (board, random) => random.pick(bestMoves(board)) },
} as const satisfies Record<string, FixedPlayer>;

