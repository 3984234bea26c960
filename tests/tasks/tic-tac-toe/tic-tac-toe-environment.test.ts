import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { createTicTacToeEnvironment } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import type { TicTacToeArtifact } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-artifact.js";
import { TicTacToeEpisode } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-episode.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { lowestCell, player, scriptedPlayers } from "./scripted-players.js";

describe("the tic-tac-toe environment", () => {
  it("plans groups of games per opening, one policy in both seats, its episode options from its own", async () => {
    const environment = await loadEnvironment("tic-tac-toe", { prompts: 3, groupSize: 4, maxTokens: 3, temperature: 0.7 });
    expect(environment.name).toBe("tic-tac-toe");
    expect(environment.plan).toEqual([{ episodeType: "tic-tac-toe", count: 3, groupSize: 4 }]);
    expect(environment.frozenRoles).toBeUndefined();
    // A move's prompt and the move fit the bundled base's 256 positions; a chat model's file is not opened at its own 8,192.
    expect(environment.contextSize).toBe(256);
    expect(environment.episodes).toMatchObject({ exportName: "createTicTacToeEpisodes", options: { maxTokens: 3, temperature: 0.7 } });
    expect(typeof environment.evaluate).toBe("function");
    // Every position 0–2 plies in: 1 + 9 + 72.
    expect(environment.stores["tic-tac-toe"]?.size).toBe(82);
  });

  it("draws each ply count of the openings equally often, every artifact a legal opening", () => {
    const store = createTicTacToeEnvironment({ openingPlies: { min: 0, max: 4 } }).stores["tic-tac-toe"]!;
    expect(store.size).toBe(1 + 9 + 72 + 252 + 756);
    const episode = new TicTacToeEpisode();
    for (const artifact of store.artifacts()) episode.parseArtifact(artifact);
    const random = new RandomStream("openings");
    const counts = [0, 0, 0, 0, 0];
    const draws = 5000;
    for (let draw = 0; draw < draws; draw++) counts[(store.sample(random).artifact as TicTacToeArtifact).opening.length]! += 1;
    // A fifth each, within 4 binomial standard deviations (sd = √(n·0.2·0.8) ≈ 28).
    for (const count of counts) expect(Math.abs(count - draws / 5)).toBeLessThan(4 * 28.3);
    expect(createTicTacToeEnvironment({ openingPlies: { min: 0, max: 0 } }).stores["tic-tac-toe"]!.size).toBe(1);
  });

  it("binds the role opponent to a frozen policy with opponent, which takes each seat in half the openings", () => {
    const environment = createTicTacToeEnvironment({ opponent: "base" });
    expect(environment.frozenRoles).toEqual({ opponent: "base" });
    const artifacts = [...environment.stores["tic-tac-toe"]!.artifacts()] as TicTacToeArtifact[];
    expect(artifacts).toHaveLength(164);
    expect(artifacts.filter((artifact) => artifact.opponentSeat === "x")).toHaveLength(82);
    expect(artifacts.filter((artifact) => artifact.opponentSeat === "o")).toHaveLength(82);
  });

  it("declares that its evaluation plays the opponents it is given, with its own games, seed and temperature", async () => {
    const environment = createTicTacToeEnvironment({ evaluateGames: 3, evaluationSeed: 4, temperature: 0.5 });
    expect(environment.evaluatesOpponents).toBe(true);
    const opponent = scriptedPlayers(player("any", lowestCell));
    const { n, figures } = (await environment.evaluate!(scriptedPlayers(player("any", lowestCell)), { opponents: [{ name: "v2", client: opponent }] }))!;
    expect(n).toBe(12);
    // Lowest cell against lowest cell: X wins on its fourth mark (3-5-7), whichever model plays it.
    expect([figures!["league.v2.x.win"], figures!["league.v2.o.loss"]]).toEqual([1, 1]);
    expect(opponent.requests).toHaveLength(3 * 3 + 3 * 4);
    expect(new Set(opponent.requests.map((request) => request.sampler.temperature))).toEqual(new Set([0.5]));
  });

  it("refuses bad options naming the field", async () => {
    await expect(loadEnvironment("tic-tac-toe", { grupSize: 4 })).rejects.toThrow(/grupSize.*groupSize/);
    expect(() => createTicTacToeEnvironment({ groupSize: 0 })).toThrow(InvalidInputError);
    expect(() => createTicTacToeEnvironment({ groupSize: 0 })).toThrow(/environment\.groupSize/);
    expect(() => createTicTacToeEnvironment({ openingPlies: { min: 3, max: 1 } })).toThrow(/environment\.openingPlies\.max.*min at most max/);
    expect(() => createTicTacToeEnvironment({ openingPlies: { min: 0, max: 5 } })).toThrow(/environment\.openingPlies\.max/);
    expect(() => createTicTacToeEnvironment({ evaluateGames: 0 })).toThrow(/environment\.evaluateGames/);
    expect(() => createTicTacToeEnvironment({ opponent: "" })).toThrow(/environment\.opponent/);
  });

  it("summarises a step's games: each seat's wins, the draws, the forfeits; against an opponent the policy's own", () => {
    const game = (artifact: TicTacToeArtifact, winner: string, forfeitedBy: string | null = null) =>
      ({ outcome: { status: "scored" }, rollout: { artifact, artifacts: { moves: [1], winner, forfeitedBy } } }) as unknown as GenerateResult;
    const failed = { outcome: { status: "failed" }, rollout: { artifact: { opening: [] }, artifacts: {} } } as unknown as GenerateResult;
    const summarise = createTicTacToeEnvironment().summarise!;
    expect(summarise([game({ opening: [] }, "x"), game({ opening: [] }, "o", "x"), game({ opening: [] }, "draw"), game({ opening: [] }, "x"), failed])).toEqual({
      xWinRate: 0.5,
      oWinRate: 0.25,
      drawRate: 0.25,
      forfeits: 0.25,
      games: 4,
    });
    const againstOpponent = createTicTacToeEnvironment({ opponent: "base" }).summarise!;
    expect(againstOpponent([game({ opening: [], opponentSeat: "o" }, "x"), game({ opening: [], opponentSeat: "x" }, "x"), game({ opening: [], opponentSeat: "x" }, "draw")])).toMatchObject({
      policyWinRate: 1 / 3,
      policyLossRate: 1 / 3,
    });
  });
});
