import { describe, expect, it } from "vitest";
import { checkValidatorQuality } from "../../../src/dream/gates/check-validator-quality.js";
import { fixtureFilesWritten } from "../../../src/dream/gates/fixture-files-written.js";
import {
  CLOCK_VALIDATOR,
  CORRECT_VALIDATOR,
  CRAFTED_OUTPUT_FILE,
  CRAFTED_SETUP,
  CRYPTO_VALIDATOR,
  NO_FIXTURE_VALIDATOR,
  PERCENT_VALIDATOR,
  RANDOM_VALIDATOR,
} from "./crafted-challenge.js";

const check = (validator: string, setup = CRAFTED_SETUP) => checkValidatorQuality({ setup, validator, outputFile: CRAFTED_OUTPUT_FILE });

describe("checkValidatorQuality", () => {
  it("accepts deterministic validators that read a fixture and the output", () => {
    expect(check(CORRECT_VALIDATOR)).toEqual({ accepted: true });
    // The self-contradiction is the self-test's to catch, not this gate's.
    expect(check(PERCENT_VALIDATOR)).toEqual({ accepted: true });
  });

  it("rejects Math.random, crypto's random functions and the clock with their kinds and lines", () => {
    const random = check(RANDOM_VALIDATOR);
    expect(random).toMatchObject({ accepted: false, rejection: { kind: "randomness", line: 4 } });
    expect(check(CRYPTO_VALIDATOR)).toMatchObject({ accepted: false, rejection: { kind: "randomness", line: 1 } });
    expect(check(CLOCK_VALIDATOR)).toMatchObject({ accepted: false, rejection: { kind: "clock" } });
    expect(check(`${CORRECT_VALIDATOR}const stamp = Date.now();\n`)).toMatchObject({ accepted: false, rejection: { kind: "clock" } });
    expect(check(`${CORRECT_VALIDATOR}require("crypto").randomBytes(4);\n`)).toMatchObject({ accepted: false, rejection: { kind: "randomness" } });
    if (!random.accepted) expect(random.rejection.message).toContain("Math.random");
  });

  it("does not mistake mentions in comments, strings or fixed dates for randomness", () => {
    const validator = `// never use Math.random here\nconst note = "Date.now() is banned";\nconst epoch = new Date(0);\n${CORRECT_VALIDATOR}`;
    expect(check(validator)).toEqual({ accepted: true });
  });

  it("rejects a validator that reads no fixture file the setup writes", () => {
    const verdict = check(NO_FIXTURE_VALIDATOR);
    expect(verdict).toMatchObject({ accepted: false, rejection: { kind: "no-fixture-reference" } });
    if (!verdict.accepted) expect(verdict.rejection.message).toContain("deals.csv");
    expect(checkValidatorQuality({ setup: CRAFTED_SETUP, validator: NO_FIXTURE_VALIDATOR, outputFile: CRAFTED_OUTPUT_FILE }, { fixtureFiles: ["other.csv"] })).toMatchObject({
      accepted: false,
    });
  });

  it("rejects a validator that never names the output file, and one that does not parse", () => {
    expect(check(CORRECT_VALIDATOR.replaceAll("rate.json", "answer.json"))).toMatchObject({ accepted: false, rejection: { kind: "no-output-reference" } });
    expect(check("const x = ;")).toMatchObject({ accepted: false, rejection: { kind: "unparseable" } });
  });

  it("reads the files a setup writes from its AST: literals, constants, templates and path.join", () => {
    const setup = `const fs = require("fs"); const path = require("path");
const NAME = "a.csv";
fs.writeFileSync(NAME, "x");
fs.writeFileSync(path.join(__dirname, "b.json"), "{}");
for (let i = 0; i < 3; i++) fs.writeFileSync(\`part_\${i}.txt\`, "");
require("fs").appendFileSync("c.log", "");`;
    expect(fixtureFilesWritten(setup)).toEqual(["a.csv", "b.json", "part_*.txt", "c.log"]);
    const validator = `const fs = require("fs");\nconst parts = [0, 1, 2].map((i) => fs.readFileSync("part_" + i + ".txt"));\nconst first = fs.readFileSync("part_0.txt");\nfs.readFileSync("rate.json");`;
    expect(check(validator, setup)).toEqual({ accepted: true });
  });
});
