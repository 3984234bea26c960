import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { citationProblems, readmeCitations } from "./readme-citations.js";

const root = resolve(import.meta.dirname, "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const results = readFileSync(join(root, "benchmarks", "RESULTS.md"), "utf8");

describe("the README's figures", () => {
  it("are those of the RESULTS.md sections they cite, from the latest run of the command they give", () => {
    const problems = citationProblems(readme, results);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("cite RESULTS.md for the main job's held-out accuracy and time", () => {
    const mainJob = readme.slice(readme.indexOf("## The main job"), readme.indexOf("\n## ", readme.indexOf("## The main job") + 1));
    const cited = readmeCitations(mainJob).map((citation) => citation.sentence);
    expect(cited.some((sentence) => /held-out/.test(sentence) && /\d%/.test(sentence) && /\d min/.test(sentence)), cited.join("\n")).toBe(true);
  });
});

describe("the comparison", () => {
  const section = (heading: string, figure: string, command: string) => [`## ${heading}`, "", `Held-out ${figure} in 3 min 5 s.`, "", "Command:", "", "```sh", command, "```", ""];
  const resultsPage = ["# Measured results", "", ...section("Old run", "51.7%", "node dist/src/cli/main.js train --seed $S"), ...section("New run", "50.9%", "node dist/src/cli/main.js train --seed $S")].join("\n");

  it("accepts a sentence whose figures and command are the latest section's", () => {
    expect(citationProblems("It reaches 50.9% in 3 min 5 s (`npx selfplay train --seed $S`; [RESULTS](benchmarks/RESULTS.md#new-run)).", resultsPage)).toEqual([]);
  });

  it("refuses a figure the section does not state, off by one in the last digit", () => {
    expect(citationProblems("It reaches 51.0% in 3 min 5 s ([RESULTS](benchmarks/RESULTS.md#new-run)).", resultsPage)).toEqual([
      `"It reaches 51.0% in 3 min 5 s ([RESULTS](benchmarks/RESULTS.md#new-run))." states 51.0%, which RESULTS.md's "New run" does not: quote its figure as written`,
    ]);
  });

  it("refuses an older run when a later section records the same command, and a command the section does not run", () => {
    expect(citationProblems("It reaches 51.7% (`selfplay train --seed $S`; [RESULTS](benchmarks/RESULTS.md#old-run)). Or 50.9% (`selfplay eval`; [RESULTS](benchmarks/RESULTS.md#new-run)).", resultsPage)).toEqual([
      `"It reaches 51.7% (\`selfplay train --seed $S\`; [RESULTS](benchmarks/RESULTS.md#old-run))." cites "Old run", but "New run" (RESULTS.md:13) records a newer run of the same command: quote that one`,
      `"Or 50.9% (\`selfplay eval\`; [RESULTS](benchmarks/RESULTS.md#new-run))." gives \`selfplay eval\`, which no Command: block of RESULTS.md's "New run" runs`,
    ]);
  });
});
