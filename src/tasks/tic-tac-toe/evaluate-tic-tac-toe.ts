import { InvalidInputError } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import { deriveStream, type RandomStream } from "../../core/random/random-stream.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import { assertEvaluationOpponentNames } from "../../environments/assert-evaluation-opponent-names.js";
import type { EnvironmentEvaluation, EvaluationOpponent } from "../../environments/environment.js";
import { FIXED_PLAYERS, type FixedPlayer } from "./fixed-players.js";
import { EMPTY_BOARD, otherSeat, outcomeOf, playMove, sideToMove, SeatSchema, type Board, type GameOutcome, type Seat } from "./tic-tac-toe-board.js";
import { legalMovesGrammar, parseMove, ticTacToeMessages } from "./tic-tac-toe-prompt.js";

export interface EvaluateTicTacToeOptions {
  /** Games the policy plays in each seat against each fixed player and each opponent. */
  games: number;
  /** The sampling temperature of every model's moves, the policy's and the opponents' (the rollouts'). */
  temperature: number;
  maxTokens: number;
  /** Seed of the games: the fixed players' choices and every model move's sampler. */
  seed: number;
  /** Models to play besides the fixed players (a league's snapshots, `selfplay eval --against`): figures `league.<name>.…`. */
  opponents?: readonly EvaluationOpponent[];
}

/** Who plays the other seat: a player the environment computes, or a model whose moves its client samples. */
type Opponent = { label: string; fixed: FixedPlayer; client?: never } | { label: string; client: InferenceClient; fixed?: never };

interface EvaluationGame {
  opponent: Opponent;
  /** The policy's seat. */
  seat: Seat;
  board: Board;
  random: RandomStream;
  outcome?: GameOutcome;
  /** Who lost the game by a completion that named no empty cell. */
  forfeitedBy?: "policy" | "opponent";
}

/**
 * The policy against each fixed player (FIXED_PLAYERS: random, minimax) and
 * each model opponent it is given, in each seat, `games` games each from the
 * empty board, every model prompted and constrained as in training and
 * sampled at `temperature`, every game seeded. `figures` holds the policy's
 * win, draw and loss shares per fixed player and seat (`random.x.win`, …,
 * `minimax.o.loss`) and `forfeits`, the share of those games it lost to a
 * completion that named no empty cell; per opponent `league.<name>.x.win`, …,
 * `league.<name>.o.loss`, its `forfeits` there and `opponentForfeits`, the
 * share the opponent lost so (each a win of the policy's). The held-out
 * accuracy is the win rate against the random player, averaged over seats,
 * and `n` the fixed players' games, so neither moves with the opponents
 * given. The games advance together: each round, every game waiting on a
 * model is one sequence of that model's batch.
 */
export async function evaluateTicTacToe(client: InferenceClient, options: EvaluateTicTacToeOptions): Promise<EnvironmentEvaluation> {
  const given = options.opponents ?? [];
  assertEvaluationOpponentNames(given.map((opponent) => opponent.name), "opponents");
  for (const [field, model] of [["client", client] as const, ...given.map((opponent) => [`opponents.${opponent.name}.client`, opponent.client] as const)]) {
    if (!model.capabilities.grammars) throw new InvalidInputError(field, "an inference client with grammar support (capabilities.grammars): each move is sampled under a grammar of the legal cells", "no grammar support");
  }
  const opponents: Opponent[] = [
    ...Object.entries(FIXED_PLAYERS).map(([label, fixed]) => ({ label, fixed })),
    ...given.map((opponent) => ({ label: `league.${opponent.name}`, client: opponent.client })),
  ];
  const games: EvaluationGame[] = [];
  for (const opponent of opponents) {
    for (const seat of SeatSchema.options) {
      for (let index = 0; index < options.games; index++) {
        games.push({ opponent, seat, board: EMPTY_BOARD, random: deriveStream(options.seed, "tic-tac-toe-evaluation", opponent.label, seat, String(index)) });
      }
    }
  }
  const opponentsTurn = (game: EvaluationGame) => game.outcome === undefined && sideToMove(game.board) !== game.seat;
  for (;;) {
    // The opponents move first when it is their turn: then every unfinished game waits on the policy.
    for (const game of games) if (opponentsTurn(game) && game.opponent.fixed) move(game, game.opponent.fixed.move(game.board, game.random));
    for (const opponent of opponents) {
      if (opponent.client) await playModelMoves(opponent.client, games.filter((game) => game.opponent === opponent && opponentsTurn(game)), "opponent", options);
    }
    const waiting = games.filter((game) => game.outcome === undefined);
    if (waiting.length === 0) break;
    await playModelMoves(client, waiting, "policy", options);
  }
  return summarise(games, opponents);
}

/** One move in each game, for its side to move, sampled by `client` in batches of its parallel sequences; a completion that names no empty cell forfeits the game. */
async function playModelMoves(client: InferenceClient, games: readonly EvaluationGame[], side: "policy" | "opponent", options: EvaluateTicTacToeOptions): Promise<void> {
  for (let start = 0; start < games.length; start += client.capabilities.parallelSequences) {
    const batch = games.slice(start, start + client.capabilities.parallelSequences);
    const outputs = await client.generate(
      batch.map((game) => ({
        messages: ticTacToeMessages(game.board, sideToMove(game.board)),
        sampler: { ...DEFAULT_SAMPLER, temperature: options.temperature, maxTokens: options.maxTokens, seed: game.random.uint32() },
        constraint: legalMovesGrammar(game.board),
      })),
    );
    batch.forEach((game, index) => {
      const cell = parseMove(outputs[index]?.text ?? "", game.board);
      if (cell !== undefined) move(game, cell);
      else {
        game.outcome = otherSeat(sideToMove(game.board));
        game.forfeitedBy = side;
      }
    });
  }
}

function move(game: EvaluationGame, cell: number): void {
  game.board = playMove(game.board, cell);
  game.outcome = outcomeOf(game.board);
}

function summarise(games: readonly EvaluationGame[], opponents: readonly Opponent[]): EnvironmentEvaluation {
  const figures: Record<string, number> = {};
  const share = (played: readonly EvaluationGame[], counted: (game: EvaluationGame) => boolean) => played.filter(counted).length / Math.max(played.length, 1);
  const seatFigures = (opponent: Opponent) => {
    for (const seat of SeatSchema.options) {
      const played = games.filter((game) => game.opponent === opponent && game.seat === seat);
      figures[`${opponent.label}.${seat}.win`] = share(played, (game) => game.outcome === seat);
      figures[`${opponent.label}.${seat}.draw`] = share(played, (game) => game.outcome === "draw");
      figures[`${opponent.label}.${seat}.loss`] = share(played, (game) => game.outcome === otherSeat(seat));
    }
  };
  for (const opponent of opponents) if (opponent.fixed) seatFigures(opponent);
  const fixedGames = games.filter((game) => game.opponent.fixed);
  figures.forfeits = share(fixedGames, (game) => game.forfeitedBy === "policy");
  for (const opponent of opponents) {
    if (!opponent.client) continue;
    seatFigures(opponent);
    const played = games.filter((game) => game.opponent === opponent);
    figures[`${opponent.label}.forfeits`] = share(played, (game) => game.forfeitedBy === "policy");
    figures[`${opponent.label}.opponentForfeits`] = share(played, (game) => game.forfeitedBy === "opponent");
  }
  const heldOutAccuracy = ((figures["random.x.win"] as number) + (figures["random.o.win"] as number)) / 2;
  return { heldOutAccuracy, n: fixedGames.length, figures };
}
