import { InvalidInputError } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import { deriveStream, type RandomStream } from "../../core/random/random-stream.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import type { EnvironmentEvaluation } from "../../environments/environment.js";
import { FIXED_PLAYERS, type FixedPlayerName } from "./fixed-players.js";
import { EMPTY_BOARD, otherSeat, outcomeOf, playMove, sideToMove, SeatSchema, type Board, type GameOutcome, type Seat } from "./tic-tac-toe-board.js";
import { legalMovesGrammar, parseMove, ticTacToeMessages } from "./tic-tac-toe-prompt.js";

export interface EvaluateTicTacToeOptions {
  /** Games the policy plays in each seat against each fixed player. */
  games: number;
  /** The policy's sampling temperature (the rollouts'). */
  temperature: number;
  maxTokens: number;
  /** Seed of the games: the fixed players' choices and the policy's samplers. */
  seed: number;
}

interface EvaluationGame {
  opponent: FixedPlayerName;
  /** The policy's seat. */
  seat: Seat;
  board: Board;
  random: RandomStream;
  outcome?: GameOutcome;
  forfeited: boolean;
}

/**
 * The policy against each fixed player (FIXED_PLAYERS: random, minimax) in
 * each seat, `games` games each from the empty board, prompted and
 * constrained as in training and sampled at its temperature, every game
 * seeded. `figures` holds the policy's win, draw and loss shares per fixed
 * player and seat (`random.x.win`, …, `minimax.o.loss`) and `forfeits`, the
 * share of games lost to a completion that named no empty cell; the held-out
 * accuracy is the win rate against the random player, averaged over seats.
 * The games advance together: each round, every game waiting on the policy
 * is one sequence of a batch.
 */
export async function evaluateTicTacToe(client: InferenceClient, options: EvaluateTicTacToeOptions): Promise<EnvironmentEvaluation> {
  if (!client.capabilities.grammars) throw new InvalidInputError("client", "an inference client with grammar support (capabilities.grammars): each move is sampled under a grammar of the legal cells", "no grammar support");
  const games: EvaluationGame[] = [];
  for (const opponent of Object.keys(FIXED_PLAYERS) as FixedPlayerName[]) {
    for (const seat of SeatSchema.options) {
      for (let index = 0; index < options.games; index++) {
        games.push({ opponent, seat, board: EMPTY_BOARD, random: deriveStream(options.seed, "tic-tac-toe-evaluation", opponent, seat, String(index)), forfeited: false });
      }
    }
  }
  for (;;) {
    // The fixed player moves first when it is its turn: then every unfinished game waits on the policy.
    for (const game of games) if (game.outcome === undefined && sideToMove(game.board) !== game.seat) move(game, FIXED_PLAYERS[game.opponent].move(game.board, game.random));
    const waiting = games.filter((game) => game.outcome === undefined);
    if (waiting.length === 0) break;
    for (let start = 0; start < waiting.length; start += client.capabilities.parallelSequences) {
      const batch = waiting.slice(start, start + client.capabilities.parallelSequences);
      const outputs = await client.generate(
        batch.map((game) => ({
          messages: ticTacToeMessages(game.board, game.seat),
          sampler: { ...DEFAULT_SAMPLER, temperature: options.temperature, maxTokens: options.maxTokens, seed: game.random.uint32() },
          constraint: legalMovesGrammar(game.board),
        })),
      );
      batch.forEach((game, index) => {
        const cell = parseMove(outputs[index]?.text ?? "", game.board);
        if (cell !== undefined) move(game, cell);
        else {
          game.outcome = otherSeat(game.seat);
          game.forfeited = true;
        }
      });
    }
  }
  return summarise(games);
}

function move(game: EvaluationGame, cell: number): void {
  game.board = playMove(game.board, cell);
  game.outcome = outcomeOf(game.board);
}

function summarise(games: readonly EvaluationGame[]): EnvironmentEvaluation {
  const figures: Record<string, number> = {};
  for (const opponent of Object.keys(FIXED_PLAYERS) as FixedPlayerName[]) {
    for (const seat of SeatSchema.options) {
      const played = games.filter((game) => game.opponent === opponent && game.seat === seat);
      const share = (outcome: (game: EvaluationGame) => boolean) => played.filter(outcome).length / Math.max(played.length, 1);
      figures[`${opponent}.${seat}.win`] = share((game) => game.outcome === seat);
      figures[`${opponent}.${seat}.draw`] = share((game) => game.outcome === "draw");
      figures[`${opponent}.${seat}.loss`] = share((game) => game.outcome === otherSeat(seat));
    }
  }
  figures.forfeits = games.filter((game) => game.forfeited).length / Math.max(games.length, 1);
  const heldOutAccuracy = ((figures["random.x.win"] as number) + (figures["random.o.win"] as number)) / 2;
  return { heldOutAccuracy, n: games.length, figures };
}
