import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { llmStatePrompt } from "../../../../src/tournament/agents/llm/llm-state-prompt.js";
import { parseKernel } from "../../../../src/tournament/kernel/load-kernel.js";
import { refusedUnderEmergency } from "./refused-under-emergency.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "constitutions/constitution-0.1.0.yaml");

describe("the LLM citizen's state prompt", () => {
  it("writes a state prompt of a few short lines", () => {
    const { view, proposer, declarer } = refusedUnderEmergency(kernel);
    // The refusal's article only: its reason is left to the chat form's words.
    const prompt = llmStatePrompt(view, { rounds: 2, goal: "fair" });
    expect(prompt).toBe(`${view.self} goal:fair r1/2\nT1000 me0 act5\np0 spend 50>c3 by ${proposer}\nE:${declarer} since r1\nrefused EndEmergency: Art. 6`);
  });
});
