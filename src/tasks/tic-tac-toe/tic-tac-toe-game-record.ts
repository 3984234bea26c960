import { z } from "zod";
import { GameOutcomeSchema, SeatSchema } from "./tic-tac-toe-board.js";

/** What a played game leaves in its rollout's `artifacts`, which the verifier scores. */
export const GameRecordSchema = z.object({
  /** Every move in order, the opening's first (cells 1–9, X first). */
  moves: z.array(z.number().int().min(1).max(9)),
  winner: GameOutcomeSchema,
  /** The seat whose completion named no empty cell, losing the game; null when the game was played out. */
  forfeitedBy: SeatSchema.nullable(),
});
export type GameRecord = z.infer<typeof GameRecordSchema>;
