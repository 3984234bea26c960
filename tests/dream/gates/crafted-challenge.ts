/**
 * A small challenge for the gate tests: deals.csv holds 10 deals, 4 won; the
 * solution writes rate.json with the win rate in percent. The validators below
 * differ only in what the gates look at.
 */
export const CRAFTED_SETUP = `const fs = require("fs");
const rows = ["id,stage"];
for (let i = 0; i < 10; i++) rows.push(i + "," + (i % 5 < 2 ? "won" : "lost"));
fs.writeFileSync("deals.csv", rows.join("\\n") + "\\n");
`;

export const CRAFTED_OUTPUT_FILE = "rate.json";

const READ_DEALS = `const fs = require("fs");
const rows = fs.readFileSync("deals.csv", "utf8").trim().split("\\n").slice(1).map((line) => line.split(","));
const won = rows.filter((row) => row[1] === "won").length;
`;

/** Correct: the expected rate is a number, compared as one. */
export const CORRECT_VALIDATOR = `${READ_DEALS}const expected = { rate: (100 * won) / rows.length };
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (typeof actual.rate !== "number" || Math.abs(actual.rate - expected.rate) > 0.05) {
  console.error("rate: expected " + expected.rate + ", got " + actual.rate);
  process.exit(1);
}
`;

/** Self-contradicting: formats the expected rate with a % and parses the answer back as a number. */
export const PERCENT_VALIDATOR = `${READ_DEALS}const expected = { rate: ((100 * won) / rows.length).toFixed(1) + "%" };
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
const got = Number(actual.rate);
if (!Number.isFinite(got) || Math.abs(got - (100 * won) / rows.length) > 0.05) {
  console.error("rate: expected " + expected.rate + ", got " + actual.rate);
  process.exit(1);
}
`;

/** Crashes in its own arithmetic: the CSV has no third column. */
export const CRASHING_VALIDATOR = `${READ_DEALS}const owners = rows.map((row) => row[2].trim());
const expected = { rate: (100 * won) / rows.length, owners };
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (actual.rate !== expected.rate) process.exit(1);
`;

/** Names a variable it never declared. */
export const REFERENCE_ERROR_VALIDATOR = `${READ_DEALS}const expected = { rate: (100 * won) / rowCount };
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (actual.rate !== expected.rate) process.exit(1);
`;

/** Throws while handling the solution's output (a field the solution left out): the solution's fault, not the validator's. */
export const OUTPUT_HANDLING_VALIDATOR = `${READ_DEALS}const expected = { rate: (100 * won) / rows.length };
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
const digits = actual.details.rate.toFixed(1);
if (Number(digits) !== expected.rate) process.exit(1);
`;

/** Uses an assertion, which fails on a wrong answer. */
export const ASSERT_VALIDATOR = `const assert = require("assert");
${READ_DEALS}const expected = { rate: (100 * won) / rows.length };
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
assert.deepStrictEqual(actual, expected);
`;

/** Random: a spot check of a random row. */
export const RANDOM_VALIDATOR = `${READ_DEALS}const pick = rows[Math.floor(Math.random() * rows.length)];
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (pick[1] === "won" && actual.rate <= 0) process.exit(1);
`;

/** Random through crypto's randomInt, destructured. */
export const CRYPTO_VALIDATOR = `const { randomInt } = require("node:crypto");
${READ_DEALS}const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (randomInt(2) === 0 && actual.rate !== (100 * won) / rows.length) process.exit(1);
`;

/** Clock-dependent: passes anything after a deadline. */
export const CLOCK_VALIDATOR = `${READ_DEALS}const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (new Date().getFullYear() < 2030 && actual.rate !== (100 * won) / rows.length) process.exit(1);
`;

/** References no fixture: checks the answer against a literal it made up. */
export const NO_FIXTURE_VALIDATOR = `const fs = require("fs");
const expected = 40;
const actual = JSON.parse(fs.readFileSync("rate.json", "utf8"));
if (actual.rate !== expected) process.exit(1);
`;

/** The right answer, written as the solution would. */
export const CORRECT_SOLUTION = `const fs = require("fs");
const rows = fs.readFileSync("deals.csv", "utf8").trim().split("\\n").slice(1);
const won = rows.filter((line) => line.split(",")[1] === "won").length;
fs.writeFileSync("rate.json", JSON.stringify({ rate: (100 * won) / rows.length }));
`;
