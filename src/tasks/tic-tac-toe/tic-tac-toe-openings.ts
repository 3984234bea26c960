import { ArtifactStore } from "../../arena/artifact-store.js";
import { boardAfter, legalMoves, type Seat } from "./tic-tac-toe-board.js";
import type { TicTacToeArtifact } from "./tic-tac-toe-artifact.js";

/** Most opening plies: before X's third mark no line can be complete, so no opening decides its game. */
export const MAX_OPENING_PLIES = 4;

/** Every distinct position `plies` moves from the empty board, each as one move order (X's and O's cells ascending). */
function positionsAfter(plies: number): number[][] {
  const positions: number[][] = [];
  const extend = (moves: number[]) => {
    if (moves.length === plies) {
      positions.push(moves);
      return;
    }
    // Each seat's cells ascending: every position is reached by exactly one such order.
    const own = moves.filter((_, index) => index % 2 === moves.length % 2);
    for (const cell of legalMoves(boardAfter(moves))) if (own.every((earlier) => earlier < cell)) extend([...moves, cell]);
  };
  extend([]);
  return positions;
}

/**
 * The store a step's games start from: every position `minPlies` to
 * `maxPlies` moves into a game, each ply count drawn equally often (a
 * position's weight is 1 / the positions of its ply count: 1, 9, 72, 252, 756
 * for 0–4 plies), so the empty board stays as common as all two-ply openings
 * together. With `opponentSeats`, each position once for each seat the frozen
 * opponent may take, so the policy plays both.
 */
export function openingStore(minPlies: number, maxPlies: number, opponentSeats: readonly (Seat | undefined)[] = [undefined]): ArtifactStore {
  const entries: { artifact: TicTacToeArtifact; weight: number }[] = [];
  for (let plies = minPlies; plies <= maxPlies; plies++) {
    const positions = positionsAfter(plies);
    for (const opening of positions) {
      for (const opponentSeat of opponentSeats) entries.push({ artifact: { opening, ...(opponentSeat !== undefined && { opponentSeat }) }, weight: 1 / positions.length });
    }
  }
  const store = new ArtifactStore({ capacity: entries.length });
  for (const { artifact, weight } of entries) store.add(artifact, weight);
  return store;
}
