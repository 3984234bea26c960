import { describe, expect, it } from "vitest";
import { challengeId, type Challenge } from "../../../src/dream/challenges/challenge.js";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import type { Messages } from "../../../src/core/schemas/message.js";
import { attemptSeed, solveChallenge } from "../../../src/dream/solver/solve-challenge.js";
import { extractSolutionSource } from "../../../src/dream/solver/extract-solution-source.js";
import { solverPrompt } from "../../../src/dream/solver/solver-prompt.js";
import { RIGHT_SOLUTION, SUM_SETUP, SUM_VALIDATOR, WRONG_SOLUTION } from "../cycle/cycle-helpers.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });
const content = { cluster: "data-analysis" as const, tier: "basic" as const, prompt: "Sum numbers.txt into sum.json.", setup: SUM_SETUP, validator: SUM_VALIDATOR, outputFile: "sum.json", source: "template" as const };
const challenge: Challenge = { id: challengeId(content), ...content };

describe("extractSolutionSource", () => {
  it("takes the last fenced block, else the code of a block cut off before its closing fence, else the whole reply", () => {
    expect(extractSolutionSource("first\n```js\na();\n```\nthen\n```javascript\nb();\n```")).toBe("b();\n");
    expect(extractSolutionSource("console.log(1)")).toBe("console.log(1)");
    expect(extractSolutionSource("  ")).toContain("wrote nothing");
    // A reply that ran out of tokens inside its block (SmolLM2's, at 256): the program so far, without the fence line.
    expect(extractSolutionSource("Here it is:\n```javascript\nconst fs = require('fs');\nfor (const line of")).toBe("const fs = require('fs');\nfor (const line of");
    // A whole block before the cut-off one is the last version it finished.
    expect(extractSolutionSource("```js\na();\n```\nBetter:\n```js\nb(")).toBe("a();\n");
    expect(extractSolutionSource("```js\n")).toContain("wrote nothing");
  });

  it("runs a program whose reply was cut off before the closing fence as the code it is: a whole one passes", async () => {
    const result = await solveChallenge({ challenge, solver: { write: async () => RIGHT_SOLUTION.replace(/```$/, "") }, sandbox, playbookBlock: "", journalExcerpts: [], samplerSeed: 1, maxAttempts: 1 });
    expect(result.outcome).toEqual({ passed: true, attemptsUsed: 1 });
  });
});

describe("solverPrompt", () => {
  it("puts the playbook first and the earlier errors last, and leaves out empty sections", () => {
    const [, user] = solverPrompt({ challengePrompt: "Do it.", outputFile: "out.json", playbookBlock: "### SKILL PLAYBOOK:\n- When: x\n", journalExcerpts: ["old failure"], previousErrors: ["TypeError: boom"] });
    const text = user?.content ?? "";
    expect(text.indexOf("### SKILL PLAYBOOK:")).toBe(0);
    expect(text.indexOf("old failure")).toBeLessThan(text.indexOf("### TASK:"));
    expect(text).toMatch(/Attempt 1: TypeError: boom$/);
    const [, bare] = solverPrompt({ challengePrompt: "Do it.", outputFile: "out.json", playbookBlock: "", journalExcerpts: [], previousErrors: [] });
    expect(bare?.content).toBe("### TASK:\nDo it.\nWrite the answer to out.json.");
  });
});

describe("solveChallenge", () => {
  it("feeds each failure's error to the next attempt, with a seed per attempt, and stops at the win", async () => {
    const calls: { messages: Messages; seed: number }[] = [];
    const solver = { write: async (messages: Messages, seed: number) => (calls.push({ messages, seed }), calls.length < 3 ? WRONG_SOLUTION : RIGHT_SOLUTION) };
    const result = await solveChallenge({ challenge, solver, sandbox, playbookBlock: "", journalExcerpts: [], samplerSeed: 41 });
    expect(result.outcome).toEqual({ passed: true, attemptsUsed: 3 });
    expect(result.attempts.map((attempt) => attempt.validatorKind)).toEqual(["failed", "failed", "passed"]);
    expect(calls.map((call) => call.seed)).toEqual([41, attemptSeed(41, 2), attemptSeed(41, 3)]);
    expect(calls[2]?.messages[1]?.content).toContain("Attempt 2: the validator rejected the output");
    expect(result.winningSolution).toContain("reduce");
    expect(result.attempts[0]?.isolation).toHaveProperty("namespaces");
  });

  it("reports a solution that crashes with its own error", async () => {
    const solver = { write: async () => "```js\nnull.x;\n```" };
    const result = await solveChallenge({ challenge, solver, sandbox, playbookBlock: "", journalExcerpts: [], samplerSeed: 1, maxAttempts: 1 });
    expect(result.outcome).toEqual({ passed: false, attemptsUsed: 1 });
    expect(result.attempts[0]?.errorSummary).toContain("TypeError");
  });
});
