import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { isTokenAllowed } from "../../../src/inference/grammar/constraint-masks.js";
import { grammarTextFor } from "../../../src/inference/grammar/grammar-text-for.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { NativeConstraintMasks } from "../../../src/inference/native/native-constraint-masks.js";
import { evaluateTicTacToe } from "../../../src/tasks/tic-tac-toe/evaluate-tic-tac-toe.js";
import { boardAfter, emptyCells, sideToMove } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";
import { createTicTacToeEnvironment } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import { TicTacToeEpisode } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-episode.js";
import { legalMovesGrammar, ticTacToeMessages } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-prompt.js";
import { train } from "../../../src/training/loop/train.js";
import { metricsWithoutTimings } from "../../training/reports/run-comparison.js";
import { nativeAddon, skipNote } from "../../inference/native/native-addon-for-tests.js";
import { expectWholeGames } from "./expect-whole-games.js";

/** The byte vocabulary of project-made models: token 3 + b is byte b. */
const byte = (character: string) => character.charCodeAt(0) + 3;

async function rollouts(directory: string): Promise<GenerateResult[]> {
  return (await readFile(join(directory, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
}

describe("tic-tac-toe on the engine (project-made models)", () => {
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    // The bundled base: 256 positions a sequence, a token a byte: the move prompt fits it.
    client = await LlamaInferenceClient.create({ modelPath: bundledArithmeticBase(), sequences: 8 });
  });

  afterAll(async () => {
    await client?.dispose();
  });

  it("plays whole games under the grammar: every move legal, each a Step with its token ids and logprobs", async () => {
    const environment = createTicTacToeEnvironment({ prompts: 4, groupSize: 2 });
    const arena = new Arena({ client, seed: 4, concurrency: 8 }).register(new TicTacToeEpisode(), environment.stores["tic-tac-toe"]);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    expect(results).toHaveLength(8);
    expectWholeGames(results, (step, board, move) => {
      expect(step.prompt).toEqual(ticTacToeMessages(board, sideToMove(board)));
      expect(step.constraint).toEqual(legalMovesGrammar(board));
      expect(step.completion[0]!.content).toBe(String(move));
      expect(step.completionTokenIds[0]).toBe(byte(String(move)));
      expect(step.completionLogprobs).toHaveLength(step.completionTokenIds.length);
      for (const logprob of step.completionLogprobs) expect(logprob).toBeLessThanOrEqual(0);
      expect(step.promptTokenIds.length).toBeGreaterThan(100);
      expect(step.promptTokenIds.length + step.completionTokenIds.length).toBeLessThanOrEqual(256);
    });
    for (const result of results) expect((result.rewards.x as number) + (result.rewards.o as number)).toBe(0);
  });

  it.skipIf(nativeAddon.binding === undefined)(`whose mask allows exactly the empty cells' digits, and then only the end${skipNote}`, async () => {
    const masks = await NativeConstraintMasks.create(bundledArithmeticBase());
    try {
      for (const moves of [[], [5], [5, 1, 9], [1, 2, 3, 5, 4, 6, 8]]) {
        const board = boardAfter(moves);
        const cells = emptyCells(board);
        const replayed = await masks.replay({ gbnf: grammarTextFor(legalMovesGrammar(board)) }, [byte(String(cells[0]))]);
        const allowed = Array.from({ length: replayed.vocabularySize }, (_, token) => token).filter((token) => isTokenAllowed(replayed, 0, token));
        expect(allowed).toEqual(cells.map((cell) => byte(String(cell))));
      }
    } finally {
      await masks.dispose();
    }
  });

  it("evaluates against the fixed players on the engine: seeded, no forfeit, never a win over minimax", async () => {
    const options = { games: 4, temperature: 1, maxTokens: 2, seed: 3 };
    const evaluation = await evaluateTicTacToe(client, options);
    expect(evaluation.n).toBe(16);
    expect(evaluation.figures!.forfeits).toBe(0);
    expect([evaluation.figures!["minimax.x.win"], evaluation.figures!["minimax.o.win"]]).toEqual([0, 0]);
    expect(await evaluateTicTacToe(client, options)).toEqual(evaluation);
  });
});

describe("training on tic-tac-toe (tiny random model, the real engine and trainer)", () => {
  let folder: string;
  let modelPath: string;
  const options = { prompts: 2, groupSize: 4, evaluateGames: 4 };
  const configuration = { sequences: 8, steps: 2, seed: 5, evaluateEvery: 0, trainer: { algorithm: "grpo" as const, epochs: 1, minibatchSize: 64, optimizer: { learningRate: 1e-3, weightDecay: 0 } } };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-tic-tac-toe-train-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
  });

  it.skipIf(nativeAddon.binding === undefined)(`trains both seats on their constrained moves and evaluates at the start and the end${skipNote}`, async () => {
    const directory = join(folder, "both-seats");
    await train({ environment: createTicTacToeEnvironment(options), modelPath, directory, configuration: { ...configuration, environment: options } });
    const lines = await metricsWithoutTimings(join(directory, "metrics.jsonl"));
    const steps = lines.filter((line) => line.rollouts !== undefined);
    expect(steps).toHaveLength(2);
    for (const line of steps) {
      expect(line.rollouts).toEqual({ scored: 8, failed: 0, dropped: 0 });
      // Every move was constrained, and every one's mask was rebuilt for the update: none left out.
      expect(line.skippedRecords).toMatchObject({ constrained: 0 });
      expect((line.rewards as Record<string, number>).x).toBeCloseTo(-(line.rewards as Record<string, number>).o!, 12);
      expect(line.environment).toMatchObject({ games: 8, forfeits: 0 });
    }
    for (const line of steps) expect(line.trainedRecords).toBeGreaterThan(0);
    // The evaluation lines, before the first step and after the last: 4 games a seat against each fixed player.
    const evaluations = lines.filter((line) => line.heldOutAccuracy !== undefined);
    expect(evaluations.map((line) => [line.step, line.n])).toEqual([
      [0, 16],
      [2, 16],
    ]);
    for (const line of evaluations) expect(line.figures).toMatchObject({ "minimax.x.win": 0, "minimax.o.win": 0, forfeits: 0 });
  }, 180_000);

  it.skipIf(nativeAddon.binding === undefined)(`plays a frozen copy of the base as the opponent: only the policy's seat is trained, the opponent's Steps stay at version 0${skipNote}`, async () => {
    const directory = join(folder, "frozen-opponent");
    const frozen = { ...options, opponent: "base" };
    await train({ environment: createTicTacToeEnvironment(frozen), modelPath, directory, configuration: { ...configuration, environment: frozen } });
    const results = await rollouts(directory);
    expect(results).toHaveLength(16);
    results.forEach((result, index) => {
      const { opponentSeat } = result.rollout.artifact as { opponentSeat: "x" | "o" };
      const step = Math.floor(index / 8);
      for (const played of result.rollout.steps) {
        if (played.roleId === "opponent") {
          expect(played.prompt[0]!.content).toContain(`You play ${opponentSeat.toUpperCase()}.`);
          expect(played.policyVersion).toBe(0);
        } else {
          expect(played.roleId).toBe(opponentSeat === "x" ? "o" : "x");
          expect(played.policyVersion).toBe(step);
        }
      }
    });
    // Both seats are the policy's in some game.
    expect(new Set(results.map((result) => (result.rollout.artifact as { opponentSeat: string }).opponentSeat)).size).toBe(2);
  }, 180_000);
});
