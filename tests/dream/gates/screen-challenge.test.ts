import { describe, expect, it } from "vitest";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { screenChallenge } from "../../../src/dream/gates/screen-challenge.js";
import { CORRECT_VALIDATOR, CRAFTED_OUTPUT_FILE, CRAFTED_SETUP, NO_FIXTURE_VALIDATOR, PERCENT_VALIDATOR, RANDOM_VALIDATOR } from "./crafted-challenge.js";

const sandbox = createChallengeSandbox({ timeoutMs: 10_000 });
const screen = (validator: string) => screenChallenge({ setup: CRAFTED_SETUP, validator, outputFile: CRAFTED_OUTPUT_FILE }, sandbox);

describe("screenChallenge", () => {
  it("accepts a correct validator and names the rejection kind of each crafted bad one", async () => {
    expect(await screen(CORRECT_VALIDATOR)).toMatchObject({ accepted: true, selfTest: { status: "passed" } });
    expect(await screen(RANDOM_VALIDATOR)).toMatchObject({ accepted: false, rejection: { kind: "randomness" }, selfTest: null });
    expect(await screen(NO_FIXTURE_VALIDATOR)).toMatchObject({ accepted: false, rejection: { kind: "no-fixture-reference" }, selfTest: null });
    expect(await screen(PERCENT_VALIDATOR)).toMatchObject({ accepted: false, rejection: { kind: "self-contradicting" } });
  });

  it("asks the setup itself which files it writes when its AST does not say", async () => {
    const tableSetup = `const fs = require("fs");
const rows = ["id,stage"];
for (let i = 0; i < 10; i++) rows.push(i + "," + (i % 5 < 2 ? "won" : "lost"));
const files = { "deals.csv": rows.join("\\n") + "\\n" };
for (const [name, text] of Object.entries(files)) fs.writeFileSync(name, text);
`;
    const screened = await screenChallenge({ setup: tableSetup, validator: CORRECT_VALIDATOR, outputFile: CRAFTED_OUTPUT_FILE }, sandbox);
    expect(screened).toMatchObject({ accepted: true, selfTest: { status: "passed" } });
    const other = await screenChallenge({ setup: tableSetup.replace('"deals.csv"', '"other.csv"'), validator: CORRECT_VALIDATOR, outputFile: CRAFTED_OUTPUT_FILE }, sandbox);
    expect(other).toMatchObject({ accepted: false, rejection: { kind: "no-fixture-reference" } });
  });

  it("accepts when the self-test finds nothing to probe (best effort)", async () => {
    expect(await screen(CORRECT_VALIDATOR.replaceAll("expected", "target"))).toMatchObject({ accepted: true, selfTest: { status: "skipped" } });
  });
});
