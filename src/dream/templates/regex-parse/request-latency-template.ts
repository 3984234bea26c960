import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const METHODS = ["GET", "GET", "POST", "DELETE"];
const PATHS = ["/api/users", "/api/orders", "/health", "/api/items/42", "/login"];
const STATUSES = ["200", "200", "201", "404", "500"];
const MALFORMED = ["GET /api/users 200 slow", "POST /login", "GET  /health 200 12ms", "garbage line", "PUT /api/orders 200 -5ms"];
const BASE_LINES = 25;

/** Aggregate request latencies parsed from access-log lines; hard mode: malformed lines to skip. */
export const requestLatencyTemplate: ChallengeTemplate = {
  key: "regex-parse/request-latency",
  cluster: "regex-parse",
  render({ sizeMultiplier, hardMode, stream }) {
    const lines: string[] = [];
    const count = BASE_LINES * sizeMultiplier;
    for (let index = 0; index < count; index++) {
      if (hardMode && (index === 2 || stream.integer(6) === 0)) lines.push(stream.pick(MALFORMED));
      else lines.push(`${stream.pick(METHODS)} ${stream.pick(PATHS)} ${stream.pick(STATUSES)} ${1 + stream.integer(900)}ms`);
    }
    const twist = hardMode
      ? " Some lines are malformed (a missing field, a latency that is not a non-negative whole number of ms, two spaces between fields): skip them."
      : "";
    return {
      prompt: `access.log has one request per line: "METHOD PATH STATUS LATENCYms", single spaces between fields (e.g. "GET /api/users 200 123ms"). Write latency.json: an object mapping each PATH to {"count": its number of requests, "maxMs": its largest latency as a number}.${twist}`,
      setup: fixtureSetupSource({ "access.log": `${lines.join("\n")}\n` }),
      validator: `const fs = require("fs");
const expected = {};
for (const line of fs.readFileSync("access.log", "utf8").split("\\n")) {
  const match = /^([A-Z]+) (\\/\\S*) (\\d{3}) (\\d+)ms$/.exec(line);
  if (match === null) continue;
  const entry = (expected[match[2]] = expected[match[2]] ?? { count: 0, maxMs: 0 });
  entry.count += 1;
  entry.maxMs = Math.max(entry.maxMs, Number(match[4]));
}
${jsonVerdictSource("latency.json")}`,
      outputFile: "latency.json",
      referenceSolution: `const fs = require("fs");
const result = {};
for (const line of fs.readFileSync("access.log", "utf8").split("\\n")) {
  const parts = line.split(" ");
  if (parts.length !== 4 || !/^[A-Z]+$/.test(parts[0]) || !parts[1].startsWith("/") || !/^\\d{3}$/.test(parts[2])) continue;
  const latency = /^(\\d+)ms$/.exec(parts[3]);
  if (!latency) continue;
  const stats = result[parts[1]] || (result[parts[1]] = { count: 0, maxMs: 0 });
  stats.count++;
  stats.maxMs = Math.max(stats.maxMs, parseInt(latency[1], 10));
}
fs.writeFileSync("latency.json", JSON.stringify(result));
`,
    };
  },
};
