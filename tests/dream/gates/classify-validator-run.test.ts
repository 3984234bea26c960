import { describe, expect, it } from "vitest";
import type { Challenge } from "../../../src/dream/challenges/challenge.js";
import { challengeId } from "../../../src/dream/challenges/challenge.js";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { runChallengeAttempt } from "../../../src/dream/challenges/run-challenge-attempt.js";
import { classifyValidatorRun } from "../../../src/dream/gates/classify-validator-run.js";
import {
  ASSERT_VALIDATOR,
  CORRECT_SOLUTION,
  CORRECT_VALIDATOR,
  CRAFTED_OUTPUT_FILE,
  CRAFTED_SETUP,
  CRASHING_VALIDATOR,
  OUTPUT_HANDLING_VALIDATOR,
  REFERENCE_ERROR_VALIDATOR,
} from "./crafted-challenge.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });

function challenge(validator: string): Challenge {
  const content = { cluster: "data-analysis", tier: "basic", prompt: "Write rate.json: the win rate of deals.csv in percent.", setup: CRAFTED_SETUP, validator, outputFile: CRAFTED_OUTPUT_FILE, source: "generated" } as const;
  return { id: challengeId(content), ...content };
}

const attempt = (validator: string, solution = CORRECT_SOLUTION) => runChallengeAttempt(challenge(validator), solution, sandbox);

describe("classifyValidatorRun (the widened crash detector)", () => {
  it("calls a TypeError in the validator's own arithmetic validator-internal: the cycle aborts after attempt 1", async () => {
    const result = await attempt(CRASHING_VALIDATOR);
    expect(result.verdict).toMatchObject({ kind: "validator-internal", abortsCycle: true, errorName: "TypeError", line: 4 });
  });

  it("calls a ReferenceError and a syntax error validator-internal", async () => {
    expect((await attempt(REFERENCE_ERROR_VALIDATOR)).verdict).toMatchObject({ kind: "validator-internal", errorName: "ReferenceError", line: 4 });
    expect((await attempt(`${CORRECT_VALIDATOR}\nconst = 1;\n`)).verdict).toMatchObject({ kind: "validator-internal", errorName: "SyntaxError" });
    expect((await attempt(`require("left-pad");\n${CORRECT_VALIDATOR}`)).verdict).toMatchObject({ kind: "validator-internal", abortsCycle: true });
    expect((await attempt(CORRECT_VALIDATOR.replace('"deals.csv"', '"deal.csv"'))).verdict).toMatchObject({ kind: "validator-internal" });
  });

  it("calls a RangeError and a JSON.parse of a fixture in the validator's own code validator-internal", async () => {
    const range = CORRECT_VALIDATOR.replace("const expected", "const padding = new Array(won - 100);\nconst expected");
    expect((await attempt(range)).verdict).toMatchObject({ kind: "validator-internal", errorName: "RangeError", line: 4 });
    const fixtureParse = CORRECT_VALIDATOR.replace("const expected", 'const meta = JSON.parse(fs.readFileSync("deals.csv", "utf8"));\nconst expected');
    expect((await attempt(fixtureParse)).verdict).toMatchObject({ kind: "validator-internal", errorName: "SyntaxError", line: 4 });
  });

  it("counts errors in handling the solution's output against the solution", async () => {
    // Malformed JSON output: a SyntaxError from JSON.parse.
    const malformed = await attempt(CORRECT_VALIDATOR, `require("fs").writeFileSync("rate.json", "{rate: 40");`);
    expect(malformed.verdict).toMatchObject({ kind: "failed", abortsCycle: false, errorName: "SyntaxError" });
    // No output file at all.
    expect((await attempt(CORRECT_VALIDATOR, "")).verdict).toMatchObject({ kind: "failed", abortsCycle: false });
    // A field the solution did not write.
    expect((await attempt(OUTPUT_HANDLING_VALIDATOR)).verdict).toMatchObject({ kind: "failed", abortsCycle: false, errorName: "TypeError" });
    // A failed assertion.
    const wrong = `require("fs").writeFileSync("rate.json", JSON.stringify({ rate: 41 }));`;
    expect((await attempt(ASSERT_VALIDATOR, wrong)).verdict).toMatchObject({ kind: "failed", errorName: "AssertionError" });
    expect((await attempt(ASSERT_VALIDATOR)).verdict).toMatchObject({ kind: "passed" });
  });

  it("reads a clean non-zero exit as failed and a killed run as killed", () => {
    const base = { status: "failed", reason: "exit-code", exitCode: 1, stdout: "", stderr: "rate: expected 40, got 41\n", wallMs: 30 };
    expect(classifyValidatorRun(base, { validatorSource: CORRECT_VALIDATOR, outputFile: CRAFTED_OUTPUT_FILE }).kind).toBe("failed");
    expect(classifyValidatorRun({ ...base, status: "killed", reason: "timeout", exitCode: null }, { validatorSource: CORRECT_VALIDATOR, outputFile: CRAFTED_OUTPUT_FILE })).toMatchObject({
      kind: "killed",
      abortsCycle: false,
    });
    const heap = { ...base, status: "failed", reason: "memory", exitCode: 134, stderr: "FATAL ERROR: Reached heap limit Allocation failed\n" };
    expect(classifyValidatorRun(heap, { validatorSource: CORRECT_VALIDATOR, outputFile: CRAFTED_OUTPUT_FILE }).kind).toBe("killed");
  });
});
