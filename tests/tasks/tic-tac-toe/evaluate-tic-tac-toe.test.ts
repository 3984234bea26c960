import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { evaluateTicTacToe } from "../../../src/tasks/tic-tac-toe/evaluate-tic-tac-toe.js";
import { EMPTY_BOARD, sideToMove } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";
import { legalMovesGrammar, ticTacToeMessages } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-prompt.js";
import { boardOfRequest, lowestCell, perfectCell, player, preferredCell, randomCell, scriptedPlayers } from "./scripted-players.js";

const OPTIONS = { games: 40, temperature: 0.8, maxTokens: 2, seed: 7 };
const FIGURES = ["random", "minimax"].flatMap((opponent) => ["x", "o"].flatMap((seat) => ["win", "draw", "loss"].map((result) => `${opponent}.${seat}.${result}`)));

describe("the tic-tac-toe evaluation against fixed players", () => {
  it("plays each seat against each fixed player, the games' shares in figures, the random player's win rate as the accuracy", async () => {
    const client = scriptedPlayers(player("any", randomCell));
    const evaluation = await evaluateTicTacToe(client, OPTIONS);
    expect(evaluation.n).toBe(160);
    expect(Object.keys(evaluation.figures!).sort()).toEqual([...FIGURES, "forfeits"].sort());
    const figures = evaluation.figures!;
    for (const opponent of ["random", "minimax"]) {
      for (const seat of ["x", "o"]) {
        const shares = ["win", "draw", "loss"].map((result) => figures[`${opponent}.${seat}.${result}`]!);
        expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        for (const share of shares) expect(share * OPTIONS.games).toBeCloseTo(Math.round(share * OPTIONS.games), 9);
      }
    }
    // A perfect player is never beaten.
    expect([figures["minimax.x.win"], figures["minimax.o.win"]]).toEqual([0, 0]);
    // Random against random: X, moving first, wins more than it loses.
    expect(figures["random.x.win"]).toBeGreaterThan(figures["random.x.loss"]!);
    expect(figures.forfeits).toBe(0);
    expect(evaluation.heldOutAccuracy).toBe((figures["random.x.win"]! + figures["random.o.win"]!) / 2);
    // Seeded: the same games again, other games under another seed.
    expect(await evaluateTicTacToe(scriptedPlayers(player("any", randomCell)), OPTIONS)).toEqual(evaluation);
    expect(await evaluateTicTacToe(scriptedPlayers(player("any", randomCell)), { ...OPTIONS, seed: 8 })).not.toEqual(evaluation);
  });

  it("asks each move as the rollouts do: the seat's prompt, the board's grammar, the policy's temperature, a seed per move", async () => {
    const client = scriptedPlayers(player("any", lowestCell));
    await evaluateTicTacToe(client, { ...OPTIONS, games: 3 });
    const first = client.requests[0]!;
    expect(first.messages).toEqual(ticTacToeMessages(EMPTY_BOARD, "x"));
    expect(first.constraint).toEqual(legalMovesGrammar(EMPTY_BOARD));
    for (const request of client.requests) {
      expect(request.constraint).toEqual(legalMovesGrammar(boardOfRequest(request)));
      expect([request.sampler.temperature, request.sampler.maxTokens, request.sampler.topK, request.sampler.topP]).toEqual([0.8, 2, 0, 1]);
    }
    expect(new Set(client.requests.map((request) => request.sampler.seed)).size).toBe(client.requests.length);
  });

  it("credits a perfect policy with no loss, and only draws against minimax", async () => {
    const { figures } = await evaluateTicTacToe(scriptedPlayers(player("any", perfectCell)), OPTIONS);
    expect([figures!["random.x.loss"], figures!["random.o.loss"]]).toEqual([0, 0]);
    expect([figures!["minimax.x.draw"], figures!["minimax.o.draw"]]).toEqual([1, 1]);
    expect(figures!["random.x.win"]).toBeGreaterThan(0.5);
  });

  it("loses a game to a completion that names no empty cell, counted in forfeits", async () => {
    // In X's seat the policy plays on; in O's it answers 0, no cell.
    const client = scriptedPlayers(player("X", lowestCell), player("O", () => "0"));
    const { figures } = await evaluateTicTacToe(client, { ...OPTIONS, games: 10 });
    expect([figures!["random.o.loss"], figures!["minimax.o.loss"]]).toEqual([1, 1]);
    expect(figures!.forfeits).toBe(0.5);
  });

  it("refuses a client without grammars", async () => {
    const client = new ScriptedInferenceClient({ rules: [player("any", lowestCell)] });
    await expect(evaluateTicTacToe(client, OPTIONS)).rejects.toThrow(InvalidInputError);
    await expect(evaluateTicTacToe(client, OPTIONS)).rejects.toThrow(/client: .*grammar support/);
  });
});

/** The figures of one model opponent, by name. */
const opponentFigures = (figures: Record<string, number>, name: string) => Object.fromEntries(Object.entries(figures).filter(([key]) => key.startsWith(`league.${name}.`)).map(([key, value]) => [key.slice(`league.${name}.`.length), value]));

describe("the tic-tac-toe evaluation against model opponents", () => {
  // Centre, corners, edges: the first of them still empty.
  const centreFirst = preferredCell([5, 1, 3, 7, 9, 2, 4, 6, 8]);

  it("plays each opponent in each seat: the policy's shares by hand, the opponent's forfeits apart from its own", async () => {
    const policy = scriptedPlayers(player("any", lowestCell));
    // As X it marks the lowest cell; as O it answers 0, no cell, at its first move.
    const low = scriptedPlayers(player("X", lowestCell), player("O", () => "0"));
    const centre = scriptedPlayers(player("any", centreFirst));
    const evaluation = await evaluateTicTacToe(policy, { ...OPTIONS, games: 5, opponents: [{ name: "v1", client: low }, { name: "v2", client: centre }] });
    const figures = evaluation.figures!;
    // Policy X, v1 O: X1, then v1 forfeits. Policy O, v1 X: X1 O2 X3 O4 X5 O6 X7, X's 3-5-7.
    expect(opponentFigures(figures, "v1")).toEqual({ "x.win": 1, "x.draw": 0, "x.loss": 0, "o.win": 0, "o.draw": 0, "o.loss": 1, forfeits: 0, opponentForfeits: 0.5 });
    // Policy X, v2 O: X1 O5 X2 O3 X4 O7, O's 3-5-7. Policy O, v2 X: X5 O1 X3 O2 X7, X's 3-5-7.
    expect(opponentFigures(figures, "v2")).toEqual({ "x.win": 0, "x.draw": 0, "x.loss": 1, "o.win": 0, "o.draw": 0, "o.loss": 1, forfeits: 0, opponentForfeits: 0 });
    // The fixed players' games, n and the accuracy are the same with opponents as without.
    const alone = await evaluateTicTacToe(scriptedPlayers(player("any", lowestCell)), { ...OPTIONS, games: 5 });
    expect(Object.keys(figures).filter((key) => !key.startsWith("league.")).map((key) => [key, figures[key]])).toEqual(Object.entries(alone.figures!));
    expect([evaluation.n, evaluation.heldOutAccuracy]).toEqual([alone.n, alone.heldOutAccuracy]);
  });

  it("counts the policy's forfeits against an opponent in that opponent's figures, and two perfect players draw", async () => {
    const policy = scriptedPlayers(player("X", perfectCell), player("O", () => "0"));
    const { figures } = await evaluateTicTacToe(policy, { ...OPTIONS, games: 4, opponents: [{ name: "perfect", client: scriptedPlayers(player("any", perfectCell)) }] });
    expect(opponentFigures(figures!, "perfect")).toEqual({ "x.win": 0, "x.draw": 1, "x.loss": 0, "o.win": 0, "o.draw": 0, "o.loss": 1, forfeits: 0.5, opponentForfeits: 0 });
    // `forfeits` is the fixed players' games alone, as without opponents.
    expect(figures!.forfeits).toBe(0.5);
  });

  it("asks the opponent's moves as the policy's: its seat's prompt, the board's grammar, the temperature, a seed per move, in batches of its sequences", async () => {
    const opponent = new ScriptedInferenceClient({ rules: [player("any", lowestCell)], capabilities: { grammars: true, parallelSequences: 4 } });
    const generate = vi.spyOn(opponent, "generate");
    await evaluateTicTacToe(scriptedPlayers(player("any", centreFirst)), { ...OPTIONS, games: 10, opponents: [{ name: "v0", client: opponent }] });
    // Its first round: the 10 games where it plays X, from the empty board, 4 + 4 + 2.
    expect(generate.mock.calls.slice(0, 3).map(([requests]) => requests.length)).toEqual([4, 4, 2]);
    const first = opponent.requests[0]!;
    expect(first.messages).toEqual(ticTacToeMessages(EMPTY_BOARD, "x"));
    for (const request of opponent.requests) {
      expect(request.messages).toEqual(ticTacToeMessages(boardOfRequest(request), sideToMove(boardOfRequest(request))));
      expect(request.constraint).toEqual(legalMovesGrammar(boardOfRequest(request)));
      expect([request.sampler.temperature, request.sampler.maxTokens]).toEqual([0.8, 2]);
    }
    expect(new Set(opponent.requests.map((request) => request.sampler.seed)).size).toBe(opponent.requests.length);
  });

  it("refuses opponents of one name, a name with a dot, and an opponent's client without grammars", async () => {
    const client = scriptedPlayers(player("any", lowestCell));
    await expect(evaluateTicTacToe(client, { ...OPTIONS, opponents: [{ name: "v1", client }, { name: "v1", client }] })).rejects.toThrow(/opponents: got "v1"; expected .*two opponents are named "v1"/);
    await expect(evaluateTicTacToe(client, { ...OPTIONS, opponents: [{ name: "v.1", client }] })).rejects.toThrow(/opponents: got "v\.1"; expected opponent names of letters, digits, - and _/);
    const plain = new ScriptedInferenceClient({ rules: [player("any", lowestCell)] });
    await expect(evaluateTicTacToe(client, { ...OPTIONS, opponents: [{ name: "v1", client: plain }] })).rejects.toThrow(/opponents\.v1\.client: .*grammar support/);
  });
});
