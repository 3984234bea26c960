import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { isTokenAllowed } from "../../../../src/inference/grammar/constraint-masks.js";
import { grammarTextFor } from "../../../../src/inference/grammar/grammar-text-for.js";
import { NativeConstraintMasks } from "../../../../src/inference/native/native-constraint-masks.js";
import { boardAfter, emptyCells, sideToMove } from "../../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";
import { createTicTacToeEnvironment } from "../../../../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import { TicTacToeEpisode } from "../../../../src/tasks/tic-tac-toe/tic-tac-toe-episode.js";
import { legalMovesGrammar, ticTacToeMessages } from "../../../../src/tasks/tic-tac-toe/tic-tac-toe-prompt.js";
import { expectWholeGames } from "../../../tasks/tic-tac-toe/expect-whole-games.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";
import { smollm2ChatTemplate } from "../../smollm2-chat-template.js";
import { useRealModelClient } from "../../use-real-model-client.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

// About 20 s on one thread of an idle machine: 8 games of SmolLM2 against itself (~30 moves of an 84-token prompt) and two masks.
describe(`tic-tac-toe on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 8, contextSize: 512 });
  const vocabulary = useRealModelVocabulary();

  it.skipIf(!realModelAvailable)("plays 8 whole games: every move a legal cell, parsed, its prompt in SmolLM2's chat template", async () => {
    // Two to four opening plies: whole games of at most seven moves, to keep the test short.
    const environment = createTicTacToeEnvironment({ prompts: 2, groupSize: 4, openingPlies: { min: 2, max: 4 } });
    const arena = new Arena({ client: client(), seed: 2, concurrency: 8 }).register(new TicTacToeEpisode(), environment.stores["tic-tac-toe"]);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    expect(results).toHaveLength(8);
    expectWholeGames(results, (step, board, move) => {
      const [system, user] = ticTacToeMessages(board, sideToMove(board));
      expect(step.completion[0]!.content).toBe(String(move));
      const expected = smollm2ChatTemplate([system!, user!]);
      expect(vocabulary().detokenize(step.promptTokenIds as never[], true)).toBe(expected);
      expect(step.promptTokenIds).toEqual(vocabulary().tokenize(expected, true));
      expect(step.completionLogprobs).toHaveLength(step.completionTokenIds.length);
    });
  });

  it.skipIf(!realModelAvailable)("whose grammar allows, of SmolLM2's 49,152 tokens, exactly those that spell an empty cell's digit", async () => {
    const masks = await NativeConstraintMasks.create(SMOLLM2_PATH);
    try {
      for (const moves of [[], [5, 1, 9]]) {
        const board = boardAfter(moves);
        const cells = emptyCells(board);
        const first = vocabulary().tokenize(String(cells[0]), false);
        expect(first).toHaveLength(1);
        const replayed = await masks.replay({ gbnf: grammarTextFor(legalMovesGrammar(board)) }, first as never as number[]);
        const allowed = Array.from({ length: replayed.vocabularySize }, (_, token) => token).filter((token) => isTokenAllowed(replayed, 0, token));
        expect(allowed.map((token) => vocabulary().detokenize([token as never], true)).sort()).toEqual(cells.map(String));
      }
    } finally {
      await masks.dispose();
    }
  });
});
