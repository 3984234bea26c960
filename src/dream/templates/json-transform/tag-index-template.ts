import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const NAMES = ["amara", "bilal", "chloe", "dmitri", "esme", "farid", "greta", "hugo", "ines", "jonas", "kira", "lev"];
const TAGS = ["admin", "beta", "billing", "support", "ops", "design"];
const BASE_USERS = 8;

/** Invert user → tags into tag → users; hard mode: tags in mixed case and padded with spaces. */
export const tagIndexTemplate: ChallengeTemplate = {
  key: "json-transform/tag-index",
  cluster: "json-transform",
  render({ sizeMultiplier, hardMode, stream }) {
    const users = Array.from({ length: BASE_USERS * sizeMultiplier }, (_, index) => {
      const tags = Array.from({ length: stream.integer(4) }, () => {
        const tag = stream.pick(TAGS);
        if (!hardMode) return tag;
        const cased = stream.integer(2) === 0 ? tag.toUpperCase() : tag[0]?.toUpperCase() + tag.slice(1);
        return `${" ".repeat(stream.integer(2))}${cased}${" ".repeat(stream.integer(2))}`;
      });
      return { name: `${stream.pick(NAMES)}${index}`, tags: hardMode ? tags : [...new Set(tags)] };
    });
    const twist = hardMode ? ' Tags come in mixed case with stray spaces (" Beta", "BETA "): trim and lower-case them first, and list a user once per tag.' : "";
    return {
      prompt: `users.json is an array of {"name", "tags": [strings]}. Write tags.json: an object mapping each tag to the names of the users that have it, sorted alphabetically; tags nobody has do not appear.${twist}`,
      setup: fixtureSetupSource({ "users.json": JSON.stringify(users, null, 2) }),
      validator: `const fs = require("fs");
const index = {};
for (const user of JSON.parse(fs.readFileSync("users.json", "utf8"))) {
  for (const raw of user.tags) {
    const tag = raw.trim().toLowerCase();
    (index[tag] = index[tag] ?? new Set()).add(user.name);
  }
}
const expected = {};
for (const [tag, names] of Object.entries(index)) expected[tag] = [...names].sort();
${jsonVerdictSource("tags.json")}`,
      outputFile: "tags.json",
      referenceSolution: `const fs = require("fs");
const users = JSON.parse(fs.readFileSync("users.json", "utf8"));
const out = {};
users.forEach(({ name, tags }) => {
  tags.map((t) => t.trim().toLowerCase()).forEach((tag) => {
    out[tag] = out[tag] || [];
    if (!out[tag].includes(name)) out[tag].push(name);
  });
});
Object.values(out).forEach((names) => names.sort());
fs.writeFileSync("tags.json", JSON.stringify(out));
`,
    };
  },
};
