import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { evaluateTicTacToe } from "../../../src/tasks/tic-tac-toe/evaluate-tic-tac-toe.js";
import { EMPTY_BOARD } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";
import { legalMovesGrammar, ticTacToeMessages } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-prompt.js";
import { boardOfRequest, lowestCell, perfectCell, player, randomCell, scriptedPlayers } from "./scripted-players.js";

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
