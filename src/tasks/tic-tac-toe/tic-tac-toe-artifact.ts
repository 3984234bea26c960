import { z } from "zod";
import { boardAfter, outcomeOf, SeatSchema, type Seat } from "./tic-tac-toe-board.js";

/** The role the frozen opponent plays (`frozenRoles: { opponent: … }`), in whichever seat the artifact gives it. */
export const OPPONENT_ROLE = "opponent";

/**
 * One game's start: the opening moves already on the board (cells 1–9, X
 * first; a legal game not yet over), and the seat a frozen opponent plays,
 * when there is one. Without it the policy plays both seats.
 */
export const TicTacToeArtifactSchema = z.object({
  opening: z
    .array(z.number().int().min(1).max(9))
    .max(8)
    .superRefine((moves, context) => {
      try {
        if (outcomeOf(boardAfter(moves)) !== undefined) context.addIssue({ code: "custom", message: "an opening after which the game is not over yet" });
      } catch (error) {
        context.addIssue({ code: "custom", message: `legal moves from the empty board, X first (${(error as Error).message})` });
      }
    }),
  opponentSeat: SeatSchema.optional(),
});
export type TicTacToeArtifact = z.infer<typeof TicTacToeArtifactSchema>;

/** The role that plays `seat` in a game of `artifact`: the seat's own (`x`, `o`) for the policy, `opponent` for the frozen one. */
export function roleOfSeat(artifact: TicTacToeArtifact, seat: Seat): string {
  return artifact.opponentSeat === seat ? OPPONENT_ROLE : seat;
}
