import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const LEVELS = ["INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"];
const SERVICES = ["auth", "billing", "search", "mailer"];
const WORDS = ["started", "request", "timeout", "retrying", "cache", "miss", "user", "saved", "[done]", "level=3"];
const MALFORMED = ["--- log rotated ---", "INFO auth: missing brackets", "2026-03-01T12:00:00Z [INFO auth missing colon", "[WARN] no timestamp: text", "2026-03-01 [ERROR] billing: bad time"];
const BASE_LINES = 30;

/** Count log lines by level with a regular expression; hard mode: malformed lines to count apart. */
export const levelCountsTemplate: ChallengeTemplate = {
  key: "regex-parse/level-counts",
  cluster: "regex-parse",
  render({ sizeMultiplier, hardMode, stream }) {
    const lines: string[] = [];
    const count = BASE_LINES * sizeMultiplier;
    for (let index = 0; index < count; index++) {
      if (hardMode && (index === 1 || stream.integer(7) === 0)) {
        lines.push(stream.pick(MALFORMED));
        continue;
      }
      const second = String(index % 60).padStart(2, "0");
      const message = Array.from({ length: 1 + stream.integer(4) }, () => stream.pick(WORDS)).join(" ");
      lines.push(`2026-03-01T12:${String(Math.floor(index / 60) % 60).padStart(2, "0")}:${second}Z [${stream.pick(LEVELS)}] ${stream.pick(SERVICES)}: ${message}`);
    }
    const twist = hardMode
      ? ' Some lines do not follow the format (no timestamp, no brackets, no colon after the service): count those under the key "malformed" instead of any level.'
      : "";
    return {
      prompt: `app.log has one entry per line in the format "YYYY-MM-DDTHH:MM:SSZ [LEVEL] service: message" (the message may contain brackets too). Write levels.json: an object mapping each LEVEL that occurs to its number of lines.${twist}`,
      setup: fixtureSetupSource({ "app.log": `${lines.join("\n")}\n` }),
      validator: `const fs = require("fs");
const pattern = /^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z \\[([A-Z]+)\\] [a-z]+: .*$/;
const expected = {};
for (const line of fs.readFileSync("app.log", "utf8").split("\\n")) {
  if (line === "") continue;
  const match = pattern.exec(line);
  const key = match === null ? "malformed" : match[1];
  expected[key] = (expected[key] ?? 0) + 1;
}
${jsonVerdictSource("levels.json")}`,
      outputFile: "levels.json",
      referenceSolution: `const fs = require("fs");
const counts = {};
const entry = /^(\\S+Z) \\[(\\w+)\\] ([\\w-]+): (.*)$/;
for (const line of fs.readFileSync("app.log", "utf8").split("\\n").filter(Boolean)) {
  const match = line.match(entry);
  const level = match && /^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$/.test(match[1]) ? match[2] : "malformed";
  counts[level] = (counts[level] || 0) + 1;
}
fs.writeFileSync("levels.json", JSON.stringify(counts));
`,
    };
  },
};
