// The search red team against the treasury-drain objective, which `selfplay bench tournament` does not search: the
// same search-cost measure (nodes and milliseconds to the first finding, per seed) under the shipped 0.1.0 and
// 0.2.0 constitutions (0.2.0's Art. 8 caps what the two red citizens may spend). RESULTS.md, "Tournaments".
//
//   npm run build && node dist/benchmarks/treasury-drain-search.js [--seeds N] [--node-budget N]   (prints JSON)
import { pathToFileURL } from "node:url";
import { benchTournamentSearch } from "../src/benchmarks/tournament/tournament-search.js";
import { integerFlag } from "./integer-flag.js";

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const seeds = Array.from({ length: integerFlag("--seeds", 8) }, (_, seed) => seed);
  console.log(JSON.stringify(await benchTournamentSearch(false, { objectives: ["treasury-drain"], seeds, nodeBudget: integerFlag("--node-budget", 50_000) })));
}
