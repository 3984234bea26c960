import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import type { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { boardAfter, sideToMove } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";
import { TicTacToeEpisode } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-episode.js";
import { legalMovesGrammar, ticTacToeMessages } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-prompt.js";
import { lowestCell, player, randomCell, scriptedPlayers } from "./scripted-players.js";

async function games(client: ScriptedInferenceClient, artifacts: unknown[], options: { count?: number; groupSize?: number; roleClients?: Record<string, ScriptedInferenceClient> } = {}): Promise<GenerateResult[]> {
  const arena = new Arena({ client, seed: 3, ...(options.roleClients && { roleClients: options.roleClients }) }).register(new TicTacToeEpisode(), ArtifactStore.of(artifacts as never[]));
  return arena.generateRollouts(arena.getBatch([{ episodeType: "tic-tac-toe", count: options.count ?? 1, groupSize: options.groupSize ?? 1 }]));
}

describe("a game of tic-tac-toe (scripted players)", () => {
  it("plays a whole game, one Step a move in the seat's role, each under the grammar of the board it saw; the winner gets +1, the loser −1", async () => {
    const client = scriptedPlayers(player("any", lowestCell));
    const [result] = await games(client, [{ opening: [] }]);
    expect(result!.outcome).toEqual({ status: "scored" });
    // Lowest cell first: X takes 1, 3, 5, 7 — the diagonal 3-5-7.
    expect(result!.rollout.artifacts).toEqual({ moves: [1, 2, 3, 4, 5, 6, 7], winner: "x", forfeitedBy: null });
    expect(result!.rewards).toEqual({ x: 1, o: -1 });
    expect(result!.scoreDetails).toEqual({ winner: "x", forfeitedBy: null });
    const steps = result!.rollout.steps;
    expect(steps.map((step) => step.roleId)).toEqual(["x", "o", "x", "o", "x", "o", "x"]);
    steps.forEach((step, index) => {
      const board = boardAfter([1, 2, 3, 4, 5, 6, 7].slice(0, index));
      expect(step.prompt).toEqual(ticTacToeMessages(board, sideToMove(board)));
      expect(step.constraint).toEqual(legalMovesGrammar(board));
      expect(step.completion).toEqual([{ role: "assistant", content: String(index + 1) }]);
      expect([step.sampler.temperature, step.sampler.maxTokens]).toEqual([1, 2]);
    });
  });

  it("starts from the artifact's opening and scores a draw 0 to each seat", async () => {
    // From X 1, O 9, X 3: lowest-cell play fills 2, 4, 5, 6, 7, 8, and no line is complete.
    const [result] = await games(scriptedPlayers(player("any", lowestCell)), [{ opening: [1, 9, 3] }]);
    expect(result!.rollout.artifacts).toEqual({ moves: [1, 9, 3, 2, 4, 5, 6, 7, 8], winner: "draw", forfeitedBy: null });
    expect(result!.rollout.steps[0]!.prompt).toEqual(ticTacToeMessages(boardAfter([1, 9, 3]), "o"));
    expect(result!.rollout.steps.map((step) => step.roleId)).toEqual(["o", "x", "o", "x", "o", "x"]);
    expect(result!.rewards).toEqual({ x: 0, o: 0 });
  });

  it("forfeits a game to a completion that names no empty cell: that seat loses, the other wins", async () => {
    const client = scriptedPlayers(player("X", lowestCell), player("O", () => "1"));
    const [result] = await games(client, [{ opening: [] }]);
    // O names X's cell 1 on its first move.
    expect(result!.rollout.artifacts).toEqual({ moves: [1], winner: "x", forfeitedBy: "o" });
    expect(result!.rewards).toEqual({ x: 1, o: -1 });
    expect(result!.scoreDetails).toEqual({ winner: "x", forfeitedBy: "o" });
    const [prose] = await games(scriptedPlayers(player("X", () => "the centre")), [{ opening: [] }]);
    expect([prose!.rollout.artifacts.forfeitedBy, prose!.rewards]).toEqual(["x", { x: -1, o: 1 }]);
  });

  it("is zero-sum in every game of a batch", async () => {
    const results = await games(scriptedPlayers(player("any", randomCell)), [{ opening: [] }, { opening: [5] }], { count: 4, groupSize: 4 });
    const winners = new Set<string>();
    for (const result of results) {
      expect(result.outcome).toEqual({ status: "scored" });
      expect((result.rewards.x as number) + (result.rewards.o as number)).toBe(0);
      winners.add(result.rollout.artifacts.winner as string);
    }
    // The seeded random players give the group games that differ.
    expect(winners.size).toBeGreaterThan(1);
  });

  it("sends the frozen opponent's seat to the opponent's client, as the role opponent, and rewards the roles that played", async () => {
    const learner = scriptedPlayers(player("any", lowestCell));
    const opponent = scriptedPlayers(player("any", lowestCell));
    const [asX] = await games(learner, [{ opening: [], opponentSeat: "o" }], { roleClients: { opponent } });
    expect(asX!.rollout.steps.map((step) => step.roleId)).toEqual(["x", "opponent", "x", "opponent", "x", "opponent", "x"]);
    expect(asX!.rewards).toEqual({ x: 1, opponent: -1 });
    expect([learner.requests.length, opponent.requests.length]).toEqual([4, 3]);
    // The opponent is told its seat.
    expect(opponent.requests[0]!.messages[0]!.content).toContain("You play O.");
    const [asO] = await games(learner, [{ opening: [], opponentSeat: "x" }], { roleClients: { opponent } });
    expect(asO!.rewards).toEqual({ opponent: 1, o: -1 });
  });

  it("refuses an opening that is no legal game or one already decided, naming the field", () => {
    const episode = new TicTacToeEpisode();
    expect(() => episode.parseArtifact({ opening: [5, 5] })).toThrow(InvalidInputError);
    expect(() => episode.parseArtifact({ opening: [5, 5] })).toThrow(/artifact\.opening \(episode "tic-tac-toe"\).*legal moves from the empty board/);
    expect(() => episode.parseArtifact({ opening: [1, 4, 2, 5, 3] })).toThrow(/artifact\.opening.*not over yet/);
    expect(() => episode.parseArtifact({ opening: [0] })).toThrow(/artifact\.opening\.0/);
    expect(() => episode.parseArtifact({ opening: [], opponentSeat: "z" })).toThrow(/artifact\.opponentSeat/);
    expect(() => new TicTacToeEpisode({ maxTokens: 0 })).toThrow(/maxTokens/);
  });
});
