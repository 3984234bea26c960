import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const REGIONS = ["north", "south", "east", "west"];
const PRODUCTS = ["widget", "gadget", "gizmo"];
const BASE_ROWS = 24;

/** Sum a CSV column per group; hard mode: NA amounts to skip. */
export const groupTotalsTemplate: ChallengeTemplate = {
  key: "data-analysis/group-totals",
  cluster: "data-analysis",
  render({ sizeMultiplier, hardMode, stream }) {
    const rows = ["region,product,amount"];
    const count = BASE_ROWS * sizeMultiplier;
    for (let index = 0; index < count; index++) {
      // Every third row at most is NA, and the first row always is in hard mode, so the twist is never absent.
      const na = hardMode && (index === 0 || stream.integer(6) === 0);
      const amount = na ? "NA" : ((stream.integer(50_000) + 100) / 100).toFixed(2);
      rows.push(`${stream.pick(REGIONS)},${stream.pick(PRODUCTS)},${amount}`);
    }
    const twist = hardMode ? " Some rows have NA instead of an amount: skip them (a region whose amounts are all NA still appears, with 0)." : "";
    return {
      prompt: `sales.csv (in the working directory) has a header and the columns region,product,amount. Write totals.json: a JSON object mapping every region in the file to the sum of its amounts, rounded to 2 decimals.${twist}`,
      setup: fixtureSetupSource({ "sales.csv": `${rows.join("\n")}\n` }),
      validator: `const fs = require("fs");
const sums = {};
for (const line of fs.readFileSync("sales.csv", "utf8").trim().split("\\n").slice(1)) {
  const [region, , amount] = line.split(",");
  sums[region] = (sums[region] ?? 0) + (amount === "NA" ? 0 : Number(amount));
}
const expected = {};
for (const region of Object.keys(sums)) expected[region] = Math.round(sums[region] * 100) / 100;
${jsonVerdictSource("totals.json")}`,
      outputFile: "totals.json",
      referenceSolution: `const fs = require("fs");
const totals = {};
for (const line of fs.readFileSync("sales.csv", "utf8").split("\\n").slice(1)) {
  if (line.trim() === "") continue;
  const [region, , amount] = line.split(",");
  totals[region] = (totals[region] ?? 0) + (amount === "NA" ? 0 : parseFloat(amount));
}
for (const region in totals) totals[region] = Number(totals[region].toFixed(2));
fs.writeFileSync("totals.json", JSON.stringify(totals));
`,
    };
  },
};
