import { describe, expect, it } from "vitest";
import { readInboxQuestions } from "../../../src/riddles/inbox/read-inbox-questions.js";

describe("readInboxQuestions", () => {
  it("reads complete lines only, skipping headings and comments, and resumes where it stopped", () => {
    const first = Buffer.from("# Actor inbox\n<!-- how -->\n\n- Why so hard?\n* What next?\nhalf a quest");
    expect(readInboxQuestions(first, 0)).toEqual({ questions: ["Why so hard?", "What next?"], nextOffset: first.lastIndexOf("\n") + 1 });
    const { nextOffset } = readInboxQuestions(first, 0);
    expect(readInboxQuestions(first, nextOffset)).toEqual({ questions: [], nextOffset });
    const second = Buffer.concat([first, Buffer.from("ion?\n")]);
    expect(readInboxQuestions(second, nextOffset)).toEqual({ questions: ["half a question?"], nextOffset: second.length });
  });
});
