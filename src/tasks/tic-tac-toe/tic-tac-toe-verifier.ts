import type { Rollout } from "../../core/schemas/rollout.js";
import type { ScoringContext, Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import type { Seat } from "./tic-tac-toe-board.js";
import { roleOfSeat, TicTacToeArtifactSchema } from "./tic-tac-toe-artifact.js";
import { GameRecordSchema } from "./tic-tac-toe-game-record.js";

/**
 * The game's programmatic winner, as rewards: +1 to the seat with three in a
 * row (or whose opponent forfeited), −1 to the other, 0 each for a draw —
 * zero-sum, no judge. Each seat's reward goes to the role that played it.
 */
export class TicTacToeVerifier implements Verifier {
  async score(rollout: Rollout, _context: ScoringContext): Promise<VerifierOutput> {
    const artifact = TicTacToeArtifactSchema.parse(rollout.artifact);
    const { winner, forfeitedBy } = GameRecordSchema.parse(rollout.artifacts);
    const reward = (seat: Seat) => (winner === "draw" ? 0 : winner === seat ? 1 : -1);
    return {
      rewards: { [roleOfSeat(artifact, "x")]: reward("x"), [roleOfSeat(artifact, "o")]: reward("o") },
      details: { winner, forfeitedBy },
    };
  }
}
