import { describe, expect, it } from "vitest";
import { parseJsonProposal } from "../../../src/tasks/proposer-solver/json-proposal.js";

describe("the JSON proposal", () => {
  it("is executed: the problem's canonical text and answer", () => {
    expect(parseJsonProposal('{"problem": "12 + 7"}')).toEqual({ text: "12+7", answer: 19 });
    expect(parseJsonProposal('{"problem": "(3+4)*2"}')).toEqual({ text: "(3+4)*2", answer: 14 });
  });

  it("is no problem when it is not that object, is cut short, or its expression does not execute", () => {
    for (const text of ['{"problem": "12+', '{"problem": 19}', '{"problem": "12+7", "answer": 19}', "12+7", '{"problem": "2/3"}', "[]", "null"]) expect(parseJsonProposal(text), text).toBeUndefined();
  });
});
