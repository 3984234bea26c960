import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { figuresIn, type Repository, resultsProblems, scriptsRunBy } from "./results-problems.js";

const root = resolve(import.meta.dirname, "..", "..");

/** The checkout this test runs in, as the rules see it: its tracked files and its commits. */
function thisRepository(): Repository {
  const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter((path) => path !== "");
  const files = new Set(tracked);
  const folders = new Set(tracked.flatMap((path) => path.split("/").slice(0, -1).map((_, index, parts) => parts.slice(0, index + 1).join("/"))));
  return {
    holds: (path) => files.has(path) || folders.has(path),
    hasCommit: (sha) => spawnSync("git", ["cat-file", "-e", `${sha}^{commit}`], { cwd: root }).status === 0,
  };
}

/** A repository holding `paths` and the commit `abc1234` only. */
function fakeRepository(paths: string[]): Repository {
  return { holds: (path) => paths.includes(path), hasCommit: (sha) => sha === "abc1234" };
}

const page = (...body: string[]) => ["# Measured results", "", "The machine: 2 cores, 24 GiB.", "", ...body, ""].join("\n");

describe("benchmarks/RESULTS.md", () => {
  it("gives every figure a Command: block that runs from the repository, or a Historical (commit <sha>) note", () => {
    const problems = resultsProblems(readFileSync(join(root, "benchmarks", "RESULTS.md"), "utf8"), thisRepository());
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

describe("the RESULTS.md rules", () => {
  const repository = fakeRepository(["benchmarks/arena-overhead.ts", ".ci/run", "tests/dream/sandbox"]);

  it("accept a section whose figures have a Command: block, and one whose figures are Historical", () => {
    const markdown = page(
      "## Arena overhead",
      "",
      "142 µs a model call.",
      "",
      "Command:",
      "",
      "```sh",
      "npm run build && node dist/benchmarks/arena-overhead.js",
      "bash .ci/run && npx vitest run tests/dream/sandbox",
      "```",
      "",
      "## A kernel profile",
      "",
      "The products took 56% of the step.",
      "",
      "Historical (commit abc1234): timed by a throwaway build that computed the graph one node at a time,",
      "not committed.",
    );
    expect(resultsProblems(markdown, repository)).toEqual([]);
  });

  it("refuse a section that states a figure with neither, and a subsection that leans on its parent's block", () => {
    const markdown = page("## Rollouts", "", "Command:", "", "```sh", "node dist/benchmarks/arena-overhead.js", "```", "", "### One thread", "", "5,818 tokens/s at 1 sequence.");
    expect(resultsProblems(markdown, repository)).toEqual([
      'RESULTS.md:13 (One thread): states figures (5,818 tokens/s) with neither a Command: block nor a "Historical (commit <sha>): <why>" paragraph',
    ]);
  });

  it("do not count a section without a figure, or the introduction", () => {
    expect(resultsProblems(page("## GPU", "", "No GPU was lent to this task, so there are no CUDA figures."), repository)).toEqual([]);
  });

  it("refuse a script in a temporary folder, in runs/ or missing from the repository, run or only named", () => {
    const markdown = page(
      "## Generic kernels",
      "",
      "20.6 tokens/s (`/tmp/q/generic.mjs`).",
      "",
      "Commands:",
      "",
      "```sh",
      "node /tmp/x.js --out /tmp/y.json",
      "timeout 380 bash runs/c27b/run-chain.sh",
      "npx tsx benchmarks/gone.ts",
      "node dist/benchmarks/gone.js && node -e 0",
      "npx vitest run tests/nowhere.test.ts",
      "```",
    );
    expect(resultsProblems(markdown, repository)).toEqual([
      "RESULTS.md:5 (Generic kernels): /tmp/q/generic.mjs names a script in a folder for outputs; commit it under benchmarks/ or scripts/, or mark its figures Historical",
      "RESULTS.md:5 (Generic kernels): `node /tmp/x.js --out /tmp/y.json` runs /tmp/x.js is not in the repository (temporary folders and ~ are for outputs only)",
      "RESULTS.md:5 (Generic kernels): `timeout 380 bash runs/c27b/run-chain.sh` runs runs/c27b/run-chain.sh is in runs/, which holds outputs, not scripts",
      "RESULTS.md:5 (Generic kernels): `npx tsx benchmarks/gone.ts` runs benchmarks/gone.ts is not a file of the repository",
      "RESULTS.md:5 (Generic kernels): `node dist/benchmarks/gone.js && node -e 0` runs dist/benchmarks/gone.js is not a file of the repository (nor is benchmarks/gone.ts, which would build it)",
      "RESULTS.md:5 (Generic kernels): `vitest run` names tests/nowhere.test.ts, which the repository does not have",
    ]);
  });

  it('refuse "throwaway", "not committed" and "outside the repository" anywhere but a Historical paragraph', () => {
    const markdown = page("## Truncation", "", "Max |Δ| 1.6e-6 (a throwaway harness).", "", "Historical (commit abc1234): its harness is not committed.", "", "From a script outside the repository.");
    expect(resultsProblems(markdown, repository)).toEqual([
      'RESULTS.md:7: "throwaway" outside a Historical paragraph: commit the harness and give its Command:, or say it on a "Historical (commit <sha>): …" line',
      'RESULTS.md:11: "outside the repository" outside a Historical paragraph: commit the harness and give its Command:, or say it on a "Historical (commit <sha>): …" line',
    ]);
  });

  it("refuse a Historical note naming no commit of the repository, a malformed one, and a label with no block", () => {
    const markdown = page("## Old", "", "3.2 s.", "", "Historical (commit 0000000): gone.", "", "Historical: the harness is gone.", "", "Command:", "", "node dist/benchmarks/arena-overhead.js");
    expect(resultsProblems(markdown, repository)).toEqual([
      "RESULTS.md:9: Historical names commit 0000000, which this repository does not have",
      'RESULTS.md:11: a paragraph that begins like a Historical note must read "Historical (commit <sha>): <why it cannot be rerun>"',
      "RESULTS.md:13: a Command: label must be followed by a fenced block holding the commands",
    ]);
  });

  it("read figures with units and in scientific notation, not bare counts", () => {
    expect(figuresIn("150 steps of 32 proposals × 8 solvers on 2 cores: 3 min 5 s, 50.9%, 1,305 tokens/s, 1.3e-6, 7.1×, 0.143 s, 3.63 GB, +16.0 points")).toEqual([
      "3 min 5 s",
      "50.9%",
      "1,305 tokens/s",
      "1.3e-6",
      "7.1×",
      "0.143 s",
      "3.63 GB",
      "16.0 points",
    ]);
  });

  it("find the script each interpreter runs, past flags, wrappers and inline programs", () => {
    expect(scriptsRunBy("nice -n -5 node dist/src/cli/main.js bench rollout --json && /usr/bin/time -v python3 -u scripts/gpu/check.py | node -e 0")).toEqual(["dist/src/cli/main.js", "scripts/gpu/check.py"]);
    expect(scriptsRunBy("npx tsx benchmarks/x.ts; deno run y.ts; timeout 170 … --env dataset")).toEqual(["benchmarks/x.ts", "y.ts"]);
  });
});
