import type { GeneralizationSource } from "../../../src/dream/lessons/generalization-guard.js";
import type { LessonCandidate } from "../../../src/dream/lessons/lesson.js";

/** A regex-parse challenge as the guard sees it. */
export const SOURCE: GeneralizationSource = {
  prompt: "Read access.log and write the number of requests per HTTP status code to counts.json, sorted by status code ascending.",
  setup: 'const lines = ["GET /a 200", "GET /b 404", "bad line"];\nrequire("node:fs").writeFileSync("access.log", lines.join("\\n"));',
  validator: 'const expected = { "200": 1, "404": 1 };\nconst actual = JSON.parse(require("node:fs").readFileSync("counts.json", "utf8"));\nif (JSON.stringify(actual) !== JSON.stringify(expected)) process.exit(1);',
  challengeHash: "c0ffee",
};

/** A lesson that says something general. */
export const GENERAL: LessonCandidate = {
  trigger: "Parsing line-oriented logs where some lines may not match the expected shape",
  antiPattern: "Assuming every line matches and indexing into a null match result",
  correctPattern: "Test each match for null and skip or count malformed lines before using capture groups",
  domains: ["regex-parse", "text-processing"],
  confidence: 0.8,
};
