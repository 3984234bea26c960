import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";

const WORDS = ["lorem", "ipsum", "dolor", "sit", "amet", "tempor", "incididunt", "labore", "magna", "aliqua", "veniam", "nostrud"];
const LONG_WORDS = ["internationalisation", "counterrevolutionaries", "electroencephalograph"];
const BASE_WORDS = 30;

/** Greedy line wrapping at a width; hard mode: words longer than the width, to be cut. */
export const wrapLinesTemplate: ChallengeTemplate = {
  key: "text-processing/wrap-lines",
  cluster: "text-processing",
  render({ sizeMultiplier, hardMode, stream }) {
    const width = 16 + stream.integer(10);
    const words = Array.from({ length: BASE_WORDS * sizeMultiplier }, (_, index) =>
      hardMode && (index === 3 || stream.integer(10) === 0) ? stream.pick(LONG_WORDS) : stream.pick(WORDS),
    );
    const twist = hardMode
      ? ` A word longer than ${width} characters is cut into pieces of ${width} characters (the last piece shorter), each placed like a word of its own.`
      : "";
    return {
      prompt: `text.txt holds words separated by single spaces. Write wrapped.txt: the words wrapped greedily at width ${width} — each line takes as many of the next words as fit in ${width} characters with single spaces between them, no leading or trailing spaces — one line per row.${twist}`,
      setup: fixtureSetupSource({ "text.txt": `${words.join(" ")}\n` }),
      validator: `const fs = require("fs");
const width = ${width};
const pieces = [];
for (const word of fs.readFileSync("text.txt", "utf8").trim().split(" ")) {
  for (let start = 0; start < word.length; start += width) pieces.push(word.slice(start, start + width));
}
const lines = [];
for (const piece of pieces) {
  const last = lines.length - 1;
  if (last >= 0 && lines[last].length + 1 + piece.length <= width) lines[last] += " " + piece;
  else lines.push(piece);
}
const expected = lines.join("\\n");
let actual;
try {
  actual = fs.readFileSync("wrapped.txt", "utf8").replace(/\\r\\n/g, "\\n").replace(/\\n$/, "");
} catch (error) {
  console.error("wrapped.txt is missing: " + error.message);
  process.exit(1);
}
const got = actual.split("\\n");
const firstWrong = lines.findIndex((line, index) => got[index] !== line);
if (firstWrong !== -1 || got.length !== lines.length) {
  console.error("wrapped.txt: line " + (firstWrong === -1 ? lines.length + 1 : firstWrong + 1) + " is wrong");
  process.exit(1);
}
`,
      outputFile: "wrapped.txt",
      referenceSolution: `const fs = require("fs");
const W = ${width};
const words = fs.readFileSync("text.txt", "utf8").split(/\\s+/).filter(Boolean).flatMap((w) => w.match(new RegExp(".{1," + W + "}", "g")));
const out = [];
let line = "";
for (const w of words) {
  if (line === "") line = w;
  else if (line.length + 1 + w.length <= W) line += " " + w;
  else { out.push(line); line = w; }
}
if (line) out.push(line);
fs.writeFileSync("wrapped.txt", out.join("\\n") + "\\n");
`,
    };
  },
};
