import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const ALPHABET = "abcdef";
const BASE_LINES = 8;

/** Longest substring without a repeated character; hard mode: with at most k distinct characters. */
export const longestRunTemplate: ChallengeTemplate = {
  key: "algorithms/longest-run",
  cluster: "algorithms",
  render({ sizeMultiplier, hardMode, stream }) {
    const lines: string[] = [];
    for (let index = 0; index < BASE_LINES * sizeMultiplier; index++) {
      const length = 5 + stream.integer(10 * sizeMultiplier);
      lines.push(Array.from({ length }, () => stream.pick([...ALPHABET])).join(""));
    }
    const distinct = 2 + stream.integer(2);
    const rule = hardMode
      ? `the longest substring containing at most ${distinct} distinct characters (characters may repeat)`
      : "the longest substring in which no character repeats";
    // The validator and the reference share the rule through this one constant: 0 means "no repeats".
    const limit = hardMode ? distinct : 0;
    return {
      prompt: `words.txt holds one lowercase string per line. Write lengths.json: a JSON array with, for each line in order, the length of ${rule}.`,
      setup: fixtureSetupSource({ "words.txt": `${lines.join("\n")}\n` }),
      validator: `const fs = require("fs");
const limit = ${limit};
function longest(text) {
  let best = 0;
  for (let start = 0; start < text.length; start++) {
    const seen = new Map();
    for (let end = start; end < text.length; end++) {
      seen.set(text[end], (seen.get(text[end]) ?? 0) + 1);
      const ok = limit === 0 ? seen.get(text[end]) === 1 : seen.size <= limit;
      if (!ok) break;
      best = Math.max(best, end - start + 1);
    }
  }
  return best;
}
const expected = fs.readFileSync("words.txt", "utf8").split("\\n").filter((line) => line !== "").map(longest);
${jsonVerdictSource("lengths.json")}`,
      outputFile: "lengths.json",
      referenceSolution: `const fs = require("fs");
const limit = ${limit};
function slidingWindow(text) {
  const counts = new Map();
  let left = 0;
  let best = 0;
  for (let right = 0; right < text.length; right++) {
    counts.set(text[right], (counts.get(text[right]) || 0) + 1);
    const tooMany = () => (limit === 0 ? counts.get(text[right]) > 1 : counts.size > limit);
    while (tooMany()) {
      const c = text[left++];
      counts.set(c, counts.get(c) - 1);
      if (counts.get(c) === 0) counts.delete(c);
    }
    best = Math.max(best, right - left + 1);
  }
  return best;
}
const lines = fs.readFileSync("words.txt", "utf8").trim().split("\\n");
fs.writeFileSync("lengths.json", JSON.stringify(lines.map(slidingWindow)));
`,
    };
  },
};
