import { describe, expect, it } from "vitest";
import { boardAfter, EMPTY_BOARD } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-board.js";
import { legalMovesGrammar, parseMove, ticTacToeMessages } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-prompt.js";

describe("a tic-tac-toe move's prompt, grammar and parse", () => {
  it("shows the rules and the seat in a system line, and the numbered board and the turn in a user message", () => {
    expect(ticTacToeMessages(boardAfter([5, 1, 9]), "o")).toEqual([
      {
        role: "system",
        content: "Tic-tac-toe: X and O take turns marking an empty cell; three in a row, column or diagonal wins. You play O. Reply with a cell number.",
      },
      { role: "user", content: "O | 2 | 3\n4 | X | 6\n7 | 8 | X\nYou are O, to move." },
    ]);
    expect(ticTacToeMessages(EMPTY_BOARD, "x")[1]?.content).toBe("1 | 2 | 3\n4 | 5 | 6\n7 | 8 | 9\nYou are X, to move.");
  });

  it("constrains a move to one digit of an empty cell", () => {
    expect(legalMovesGrammar(EMPTY_BOARD)).toEqual({ kind: "grammar", gbnf: "root ::= [123456789]" });
    expect(legalMovesGrammar(boardAfter([5, 1, 9]))).toEqual({ kind: "grammar", gbnf: "root ::= [234678]" });
    expect(legalMovesGrammar(boardAfter([1, 2, 3, 5, 4, 6, 8]))).toEqual({ kind: "grammar", gbnf: "root ::= [79]" });
  });

  it("reads the digit of an empty cell, and nothing else", () => {
    const board = boardAfter([5, 1]);
    expect(parseMove("2", board)).toBe(2);
    expect(parseMove(" 9\n", board)).toBe(9);
    for (const text of ["5", "1", "0", "23", "", "two", "2.", "cell 2"]) expect(parseMove(text, board), text).toBeUndefined();
  });
});
