import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const VOCABULARY = ["the", "a", "of", "and", "river", "stone", "light", "window", "garden", "quiet", "north", "paper", "is", "to", "bright", "old"];
const STOPWORDS = ["the", "a", "of", "and", "is", "to"];
const BASE_SENTENCES = 12;
const TOP = 5;

/** The most frequent words of a text; hard mode: a stopword list to leave out. */
export const topWordsTemplate: ChallengeTemplate = {
  key: "text-processing/top-words",
  cluster: "text-processing",
  render({ sizeMultiplier, hardMode, stream }) {
    const sentences = Array.from({ length: BASE_SENTENCES * sizeMultiplier }, () => {
      const words = Array.from({ length: 4 + stream.integer(8) }, () => stream.pick(VOCABULARY));
      const first = words[0] as string;
      words[0] = first[0]?.toUpperCase() + first.slice(1);
      return `${words.join(stream.integer(3) === 0 ? ", " : " ")}${stream.pick([".", "!", "?", ";"])}`;
    });
    const files: Record<string, string> = { "corpus.txt": `${sentences.join(" ")}\n` };
    if (hardMode) files["stopwords.txt"] = `${STOPWORDS.join("\n")}\n`;
    const twist = hardMode ? " Leave out the words listed in stopwords.txt (one per line)." : "";
    return {
      prompt: `corpus.txt is English-like text. A word is a run of letters a–z, compared lower-cased. Write top.json: the ${TOP} most frequent words as an array of [word, count] pairs, by count (highest first), then alphabetically.${twist}`,
      setup: fixtureSetupSource(files),
      validator: `const fs = require("fs");
const stopwords = new Set(fs.existsSync("stopwords.txt") ? fs.readFileSync("stopwords.txt", "utf8").split("\\n").filter(Boolean) : []);
const counts = new Map();
for (const word of fs.readFileSync("corpus.txt", "utf8").toLowerCase().match(/[a-z]+/g) ?? []) {
  if (!stopwords.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
}
const expected = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, ${TOP});
${jsonVerdictSource("top.json")}`,
      outputFile: "top.json",
      referenceSolution: `const fs = require("fs");
const stop = fs.existsSync("stopwords.txt") ? fs.readFileSync("stopwords.txt", "utf8").split(/\\s+/).filter((w) => w) : [];
const freq = {};
for (const w of fs.readFileSync("corpus.txt", "utf8").toLowerCase().split(/[^a-z]+/)) {
  if (w && !stop.includes(w)) freq[w] = (freq[w] || 0) + 1;
}
const top = Object.entries(freq).sort(([wa, ca], [wb, cb]) => cb - ca || wa.localeCompare(wb)).slice(0, ${TOP});
fs.writeFileSync("top.json", JSON.stringify(top));
`,
    };
  },
};
