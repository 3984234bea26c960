import { describe, expect, it } from "vitest";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { instrumentValidator } from "../../../src/dream/gates/instrument-validator.js";
import { runValidatorSelfTest } from "../../../src/dream/gates/run-validator-self-test.js";
import { CORRECT_VALIDATOR, CRAFTED_OUTPUT_FILE, CRAFTED_SETUP, CRASHING_VALIDATOR, NO_FIXTURE_VALIDATOR, PERCENT_VALIDATOR } from "./crafted-challenge.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });
const selfTest = (validator: string) => runValidatorSelfTest({ setup: CRAFTED_SETUP, validator, outputFile: CRAFTED_OUTPUT_FILE }, sandbox);

describe("runValidatorSelfTest", () => {
  it("passes a correct validator on its own expected output", async () => {
    expect(await selfTest(CORRECT_VALIDATOR)).toEqual({ status: "passed", variable: "expected", output: '{"rate":40}' });
  });

  it("rejects the self-contradicting validator (expected formatted with a %, parsed back as a number)", async () => {
    const result = await selfTest(PERCENT_VALIDATOR);
    expect(result).toMatchObject({ status: "rejected", rejection: { kind: "self-contradicting" }, variables: ["expected"], verdict: { kind: "failed" } });
  });

  it("rejects a validator that crashes on its own fixtures before reading the output", async () => {
    const result = await selfTest(CRASHING_VALIDATOR);
    expect(result).toMatchObject({ status: "rejected", rejection: { kind: "self-contradicting" }, verdict: { kind: "validator-internal", errorName: "TypeError" } });
  });

  it("skips, not blocks, when no expected variable or no output read is found", async () => {
    const renamed = CORRECT_VALIDATOR.replaceAll("expected", "target");
    expect(await selfTest(renamed)).toMatchObject({ status: "skipped" });
    expect(await selfTest("const x = ;")).toMatchObject({ status: "skipped" });
    expect(await selfTest(CORRECT_VALIDATOR.replaceAll("rate.json", "other.json"))).toMatchObject({ status: "skipped" });
    // A literal expected value still self-tests: compared whole it passes; compared with a field of the output
    // (actual.rate against a bare 40) the validator contradicts itself.
    expect(await selfTest(NO_FIXTURE_VALIDATOR.replace("actual.rate !==", "actual !=="))).toMatchObject({ status: "passed", output: "40" });
    expect(await selfTest(NO_FIXTURE_VALIDATOR)).toMatchObject({ status: "rejected" });
  });

  it("injects the probe just before the statement that reads the output, inside a function too", () => {
    const instrumented = instrumentValidator(CORRECT_VALIDATOR, CRAFTED_OUTPUT_FILE);
    expect(instrumented).toMatchObject({ instrumented: true, variables: ["expected"], line: 5 });
    const nested = `const fs = require("fs");\nfunction main() {\n  const expectedLines = ["a"];\n  const golden = 1;\n  if (true) {\n    const out = fs.readFileSync("rate.json", "utf8");\n  }\n}\nmain();\n`;
    expect(instrumentValidator(nested, CRAFTED_OUTPUT_FILE)).toMatchObject({ instrumented: true, variables: ["expectedLines", "golden"], line: 6 });
  });

  it("tries an array's line encoding before rejecting", async () => {
    const lines = `const fs = require("fs");
const expectedLines = fs.readFileSync("deals.csv", "utf8").trim().split("\\n").slice(1).filter((line) => line.endsWith("won")).map((line) => line.split(",")[0]);
const got = fs.readFileSync("rate.json", "utf8").trim().split("\\n");
if (got.join() !== expectedLines.join()) process.exit(1);
`;
    expect(await selfTest(lines)).toEqual({ status: "passed", variable: "expectedLines", output: "0\n1\n5\n6" });
  });
});
