import { z } from "zod";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { Episode } from "../../core/episodes/episode.js";
import type { JsonObject } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import { boardAfter, otherSeat, outcomeOf, playMove, sideToMove, type Seat } from "./tic-tac-toe-board.js";
import { OPPONENT_ROLE, roleOfSeat, TicTacToeArtifactSchema, type TicTacToeArtifact } from "./tic-tac-toe-artifact.js";
import type { GameRecord } from "./tic-tac-toe-game-record.js";
import { legalMovesGrammar, parseMove, ticTacToeMessages } from "./tic-tac-toe-prompt.js";
import { TicTacToeVerifier } from "./tic-tac-toe-verifier.js";

export const TicTacToeEpisodeOptionsSchema = z.strictObject({
  /** Tokens a move may take: the cell's digit, and room for the end token. Default 2. */
  maxTokens: z.number().int().min(1).default(2),
  /** Sampling temperature of every move (the policy's and a frozen opponent's). Default 1. */
  temperature: z.number().min(0).default(1),
});
export type TicTacToeEpisodeOptions = z.input<typeof TicTacToeEpisodeOptionsSchema>;

/** A game in progress: the moves so far, and the seat that forfeited, if one did. */
export interface TicTacToeState {
  moves: number[];
  forfeitedBy: Seat | null;
}

/**
 * One game of tic-tac-toe from the artifact's opening to its end, each move
 * one Step: the side to move sees the board (`ticTacToeMessages`) and samples
 * a cell under a grammar of the empty cells' digits. One policy plays both
 * seats as the roles `x` and `o` (the seat in the prompt), or one seat
 * against the frozen `opponent`. A completion that names no empty cell
 * forfeits the game. The environment computes the winner (TicTacToeVerifier).
 */
export class TicTacToeEpisode extends Episode<TicTacToeArtifact, TicTacToeState> {
  readonly type = "tic-tac-toe";
  readonly roles: readonly Role[];
  readonly verifier = new TicTacToeVerifier();
  protected readonly artifactSchema = TicTacToeArtifactSchema;

  constructor(options: TicTacToeEpisodeOptions = {}) {
    super();
    const { maxTokens, temperature } = parseInput(TicTacToeEpisodeOptionsSchema, options);
    const sampler = { maxTokens, temperature };
    this.roles = ["x", "o", OPPONENT_ROLE].map((id) => RoleSchema.parse({ id, sampler }));
  }

  async rollout(context: EpisodeContext, artifact: TicTacToeArtifact): Promise<TicTacToeState> {
    const moves = [...artifact.opening];
    let board = boardAfter(moves);
    while (outcomeOf(board) === undefined) {
      const seat = sideToMove(board);
      const response = await context.callModel(roleOfSeat(artifact, seat), ticTacToeMessages(board, seat), { constraint: legalMovesGrammar(board) });
      const cell = parseMove(response.text, board);
      if (cell === undefined) return { moves, forfeitedBy: seat };
      board = playMove(board, cell);
      moves.push(cell);
    }
    return { moves, forfeitedBy: null };
  }

  finalize(state: TicTacToeState): JsonObject {
    const winner = state.forfeitedBy === null ? (outcomeOf(boardAfter(state.moves)) as GameRecord["winner"]) : otherSeat(state.forfeitedBy);
    return { moves: state.moves, winner, forfeitedBy: state.forfeitedBy } satisfies GameRecord;
  }
}
