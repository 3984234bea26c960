import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const SUBJECTS = ["math", "physics", "history", "art", "biology"];
const STUDENTS = ["ana", "ben", "chen", "dara", "eli", "fay", "gus", "hana", "ivo", "jo"];
const BASE_ROWS = 20;

/** Mean and max per group of a CSV; hard mode: blank and NA scores to leave out. */
export const subjectStatsTemplate: ChallengeTemplate = {
  key: "data-analysis/subject-stats",
  cluster: "data-analysis",
  render({ sizeMultiplier, hardMode, stream }) {
    const rows = ["student,subject,score"];
    const count = BASE_ROWS * sizeMultiplier;
    const subjects = SUBJECTS.slice(0, 2 + sizeMultiplier);
    for (let index = 0; index < count; index++) {
      const subject = subjects[index % subjects.length] as string;
      const missing = hardMode && index >= subjects.length && stream.integer(5) === 0;
      const score = missing ? (stream.integer(2) === 0 ? "NA" : "") : String(stream.integer(101));
      rows.push(`${stream.pick(STUDENTS)},${subject},${score}`);
    }
    const twist = hardMode ? " Some scores are NA or empty: leave those rows out of both the mean and the max." : "";
    return {
      prompt: `scores.csv has a header and the columns student,subject,score (an integer 0–100). Write stats.json: an object mapping each subject to {"mean": the mean score rounded to 2 decimals, "max": the highest score}.${twist}`,
      setup: fixtureSetupSource({ "scores.csv": `${rows.join("\n")}\n` }),
      validator: `const fs = require("fs");
const scores = {};
for (const line of fs.readFileSync("scores.csv", "utf8").trim().split("\\n").slice(1)) {
  const [, subject, score] = line.split(",");
  if (score === "" || score === "NA" || score === undefined) continue;
  (scores[subject] = scores[subject] ?? []).push(Number(score));
}
const expected = {};
for (const [subject, values] of Object.entries(scores)) {
  expected[subject] = { mean: Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100, max: Math.max(...values) };
}
${jsonVerdictSource("stats.json")}`,
      outputFile: "stats.json",
      referenceSolution: `const fs = require("fs");
const groups = new Map();
for (const line of fs.readFileSync("scores.csv", "utf8").split(/\\r?\\n/).slice(1)) {
  const parts = line.split(",");
  if (parts.length < 3 || !/^\\d+$/.test(parts[2])) continue;
  if (!groups.has(parts[1])) groups.set(parts[1], []);
  groups.get(parts[1]).push(Number(parts[2]));
}
const stats = {};
for (const [subject, values] of groups) {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  stats[subject] = { mean: Math.round(mean * 100) / 100, max: Math.max(...values) };
}
fs.writeFileSync("stats.json", JSON.stringify(stats, null, 2));
`,
    };
  },
};
