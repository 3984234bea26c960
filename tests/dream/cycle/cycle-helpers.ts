import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { ChallengeTemplate } from "../../../src/dream/templates/challenge-template.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../../src/inference/scripted-inference-client.js";

export const SUM_SETUP = `const fs = require("fs");
fs.writeFileSync("numbers.txt", "3\\n4\\n5\\n");
`;

const READ = `const fs = require("fs");
const numbers = fs.readFileSync("numbers.txt", "utf8").trim().split("\\n").map(Number);
const expected = numbers.reduce((a, b) => a + b, 0);
let actual;
try {
  actual = JSON.parse(fs.readFileSync("sum.json", "utf8"));
} catch (error) {
  console.error("sum.json is missing or not JSON");
  process.exit(1);
}
`;

/** Correct: the sum of numbers.txt, compared exactly. */
export const SUM_VALIDATOR = `${READ}if (actual !== expected) {
  console.error("sum.json: wrong total");
  process.exit(1);
}
`;

/** Passes its own expected answer, but crashes in its own code when reporting a wrong one. */
export const CRASH_ON_REPORT_VALIDATOR = `${READ}function describeNumbers() {
  return numbers.report.join(",");
}
if (actual !== expected) {
  console.error(describeNumbers());
  process.exit(1);
}
`;

export const RIGHT_SOLUTION = '```js\nconst fs = require("fs");\nconst total = fs.readFileSync("numbers.txt", "utf8").trim().split("\\n").map(Number).reduce((a, b) => a + b, 0);\nfs.writeFileSync("sum.json", JSON.stringify(total));\n```';
export const WRONG_SOLUTION = '```js\nconst fs = require("fs");\nfs.writeFileSync("sum.json", "0");\n```';

/** A one-challenge template of the data-analysis cluster (the sum of a numbers file). */
export function sumTemplate(key = "data-analysis/sum", validator = SUM_VALIDATOR): ChallengeTemplate {
  return {
    key,
    cluster: "data-analysis",
    render: ({ tier }) => ({
      prompt: `numbers.txt holds one integer per line. Write their total to sum.json as a JSON number. (tier ${tier}, ${key})`,
      setup: SUM_SETUP,
      validator,
      outputFile: "sum.json",
      referenceSolution: RIGHT_SOLUTION,
    }),
  };
}

/** A lesson that passes the generalization guard. */
export const LESSON = {
  trigger: "Totalling values read from a text file with one entry per row",
  antiPattern: "Writing a placeholder result instead of computing from the input",
  correctPattern: "Parse every row into a Number, add them up, then serialise the total with JSON.stringify",
  domains: ["data-analysis"],
  confidence: 0.8,
};

const userText = (request: GenerationRequest) => request.messages.map((message) => message.content).join("\n");

/** Rules for a solver that fails its first attempt and wins after feedback, or at once with the playbook. */
export function struggledThenWonRules(): ScriptedRule[] {
  return [
    { when: (request) => userText(request).includes("You review a solved"), reply: JSON.stringify(LESSON) },
    { when: (request) => userText(request).includes("### SKILL PLAYBOOK:"), reply: RIGHT_SOLUTION },
    { when: (request) => userText(request).includes("YOUR EARLIER ATTEMPTS FAILED"), reply: RIGHT_SOLUTION },
    { when: (request) => userText(request).includes("### TASK:"), reply: WRONG_SOLUTION },
  ];
}

export function scriptedClient(rules: ScriptedRule[]): ScriptedInferenceClient {
  return new ScriptedInferenceClient({ rules });
}

export function temporaryFolder(): string {
  return mkdtempSync(join(tmpdir(), "selfplay-dream-cycle-test-"));
}

/** A clock that advances one second per reading, from a fixed epoch. */
export function steppingClock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1) + 1000 * tick++);
}
