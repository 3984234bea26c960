import { z } from "zod";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Environment } from "../../environments/environment.js";
import { evaluateTicTacToe } from "./evaluate-tic-tac-toe.js";
import { OPPONENT_ROLE, TicTacToeArtifactSchema } from "./tic-tac-toe-artifact.js";
import { SeatSchema } from "./tic-tac-toe-board.js";
import { GameRecordSchema } from "./tic-tac-toe-game-record.js";
import { ticTacToeEpisodeModule } from "./tic-tac-toe-episodes.js";
import { MAX_OPENING_PLIES, openingStore } from "./tic-tac-toe-openings.js";

/** Positions a sequence of the engine holds: the longest move prompt and its move, with room to spare. */
const MOVE_CONTEXT_SIZE = 256;

/** The options of the `tic-tac-toe` environment. */
export const TicTacToeEnvironmentOptionsSchema = z.strictObject({
  /** Openings per step, each the start of one group of games. Default 8. */
  prompts: z.number().int().min(1).default(8),
  /**
   * Games per opening: the GRPO group, in which each seat's reward is compared
   * with the same seat's in the group's other games. 1: each game alone, each
   * seat against its own running baseline (an EMA, SPIRAL's role-conditioned
   * advantage). Default 8.
   */
  groupSize: z.number().int().min(1).default(8),
  /**
   * Random legal moves already on the board when a game starts, drawn per
   * opening from `min` to `max` plies (each ply count as often, every
   * position of a count alike), so a step's groups start from different
   * positions. At most 4 (no line can be complete before X's third mark).
   * Default `{ min: 0, max: 2 }`.
   */
  openingPlies: z
    .strictObject({
      /** Fewest opening moves, from 0. */
      min: z.number().int().min(0).max(MAX_OPENING_PLIES),
      /** Most opening moves, from `min` to 4. */
      max: z.number().int().min(0).max(MAX_OPENING_PLIES),
    })
    .refine((plies) => plies.min <= plies.max, { message: "min at most max", path: ["max"] })
    .default({ min: 0, max: 2 }),
  /** Sampling temperature of every move, in rollouts and the evaluation. Default 1. */
  temperature: z.number().min(0).default(1),
  /** Tokens a move may take (the grammar allows one digit; room for the end token). Default 2. */
  maxTokens: z.number().int().min(1).max(16).default(2),
  /** Evaluation games the policy plays in each seat against each fixed player (random, minimax) and each opponent it is given (a league's snapshots). Default 200. */
  evaluateGames: z.number().int().min(1).max(100_000).default(200),
  /** Seed of the evaluation's games (the fixed players' choices and the policy's samplers). Default 0. */
  evaluationSeed: z.number().int().min(0).max(4_294_967_295).default(0),
  /**
   * Binds the role `opponent` to a frozen policy, which plays one seat of each
   * game (X in half the openings, O in the other half) while the policy plays
   * the other: `"base"` (the run's base model) or the path of a GGUF model or
   * LoRA adapter (a checkpoint). Default: none, the policy plays both seats.
   */
  opponent: z.string().min(1).optional(),
});
export type TicTacToeEnvironmentOptions = z.input<typeof TicTacToeEnvironmentOptionsSchema>;

/**
 * Tic-tac-toe played in text, a zero-sum game whose winner the environment
 * computes: each move a Step under a grammar of the empty cells, one policy
 * in both seats (roles `x` and `o`, the seat in the prompt) or one seat
 * against a frozen `opponent`; +1 / −1 / 0. Each step plays `groupSize`
 * games from each of `prompts` openings; credit compares each seat with
 * itself within a group. The evaluation plays a fixed random and a fixed
 * minimax player in both seats, and the model opponents it is given
 * (`evaluatesOpponents`).
 */
export function createTicTacToeEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(TicTacToeEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const { min, max } = parsed.openingPlies;
  return {
    name: "tic-tac-toe",
    // A move's prompt is at most 208 tokens even a byte a token (the bundled base); SmolLM2's file would open 8,192 a sequence.
    contextSize: MOVE_CONTEXT_SIZE,
    episodes: ticTacToeEpisodeModule({ maxTokens: parsed.maxTokens, temperature: parsed.temperature }),
    stores: { "tic-tac-toe": openingStore(min, max, parsed.opponent === undefined ? [undefined] : SeatSchema.options) },
    plan: [{ episodeType: "tic-tac-toe", count: parsed.prompts, groupSize: parsed.groupSize }],
    ...(parsed.opponent !== undefined && { frozenRoles: { [OPPONENT_ROLE]: parsed.opponent } }),
    evaluate: (client, evaluateOptions) =>
      evaluateTicTacToe(client, {
        games: parsed.evaluateGames,
        temperature: parsed.temperature,
        maxTokens: parsed.maxTokens,
        seed: parsed.evaluationSeed,
        ...(evaluateOptions?.opponents && { opponents: evaluateOptions.opponents }),
      }),
    evaluatesOpponents: true,
    summarise: (results) => ticTacToeStepSummary(results, parsed.opponent !== undefined),
  };
}

/** A step's games: the share each seat won, the draws, the forfeits; against a frozen opponent, the policy's wins and losses too. */
function ticTacToeStepSummary(results: readonly GenerateResult[], againstOpponent: boolean): Record<string, number> {
  const scored = results.filter((result) => result.outcome.status === "scored");
  const games = scored.map((result) => ({ ...GameRecordSchema.parse(result.rollout.artifacts), ...TicTacToeArtifactSchema.parse(result.rollout.artifact) }));
  const share = (count: number) => count / Math.max(games.length, 1);
  return {
    xWinRate: share(games.filter((game) => game.winner === "x").length),
    oWinRate: share(games.filter((game) => game.winner === "o").length),
    drawRate: share(games.filter((game) => game.winner === "draw").length),
    /** Share of games lost to a completion that named no empty cell. */
    forfeits: share(games.filter((game) => game.forfeitedBy !== null).length),
    games: games.length,
    ...(againstOpponent && {
      policyWinRate: share(games.filter((game) => game.winner !== "draw" && game.winner !== game.opponentSeat).length),
      policyLossRate: share(games.filter((game) => game.winner === game.opponentSeat).length),
    }),
  };
}
