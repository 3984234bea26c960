/**
 * The rule benchmarks/RESULTS.md keeps, so that every figure in it can be reproduced or says why it cannot:
 *
 * 1. A section that states a figure has a `Command:` block or a `Historical (commit <sha>): <why>` paragraph of its
 *    own (a subsection does not inherit its parent's). A figure is a number with a unit — %, ×, µs, ms, s, min,
 *    minutes, seconds, KiB…GiB, KB…GB, any `…/s` rate (tokens/s, rollouts/s, GFLOP/s), points — or one in
 *    scientific notation (6.2e-7). The page's introduction, above the first `##`, is not a section.
 * 2. A script a command executes (`node X`, `bash X`, `sh X`, `python3 X`, `tsx X`, `npx tsx X`, `ts-node X`, …) is
 *    in the repository: a tracked file, or `dist/….js` built from a tracked `….ts`. Temporary folders (/tmp, ~) and
 *    `runs/` are for outputs only: no script path there anywhere in the page's code, run or not. A
 *    `vitest run` names test files or folders that exist.
 * 3. "throwaway", "not committed" and "outside the repository" appear only in Historical paragraphs: a figure from a
 *    harness nobody can run says so there, with its commit.
 * 4. A Historical paragraph names a commit of this repository.
 */
import { readResultsSections } from "./results-sections.js";

/** What the rules need to know of the repository. */
export interface Repository {
  /** Whether `path` (relative to the root, no `./`) is a tracked file, or a folder holding one. */
  holds(path: string): boolean;
  /** Whether `sha` names a commit of the repository. */
  hasCommit(sha: string): boolean;
}

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`;
/** A figure: a number with a unit, or in scientific notation. Times like `3 min 5 s` are one figure. */
export const FIGURE = new RegExp(
  String.raw`(?<![\w.])${NUMBER}(?:e[-−]?\d+\b|\s?min(?:utes?)?(?:\s\d+\s?s\b)?|\s?(?:%|×|µs\b|ms\b|s\b|seconds?\b|[KMG]i?B\b|[A-Za-z]+\/s\b|points?\b))`,
  "gu",
);

/** The figures `text` states, as written. */
export function figuresIn(text: string): string[] {
  return [...text.matchAll(FIGURE)].map((match) => match[0].replace(/\s+/g, " "));
}

const WORDS = /throwaway|not committed|outside the repository/i;
const INTERPRETERS = new Set(["node", "bash", "sh", "zsh", "python", "python3", "tsx", "ts-node", "vite-node", "bun", "deno"]);
/** Interpreter flags after which the program is given inline, not as a file. */
const INLINE_PROGRAM = new Set(["-e", "--eval", "-p", "--print", "-c"]);
const SCRIPT_PATH = /(?:^|[\s"'=(])((?:\/|~\/|\$HOME\/|(?:\.\/)?runs\/)[^\s"'`)]*\.(?:m?js|cjs|ts|mts|sh|py))(?=$|[\s"'`):;,])/g;

/** The scripts a line of shell executes: each interpreter's first argument that is not a flag. */
export function scriptsRunBy(command: string): string[] {
  const scripts: string[] = [];
  for (const part of command.split(/&&|\|\||[;|(){}\n]/)) {
    const words = part.trim().split(/\s+/);
    for (let index = 0; index < words.length; index++) {
      const word = words[index] as string;
      if (!INTERPRETERS.has(word)) continue;
      let next = index + 1;
      if (word === "deno" && words[next] === "run") next++;
      while (next < words.length && (words[next] as string).startsWith("-")) {
        if (INLINE_PROGRAM.has(words[next] as string)) next = words.length;
        next++;
      }
      const script = words[next];
      if (script !== undefined && script !== "…") scripts.push(script);
      index = next;
    }
  }
  return scripts;
}

/** Test files and folders a `vitest run` line names. */
function vitestPaths(command: string): string[] {
  const run = /\bvitest run\s+([^&;|]*)/.exec(command);
  if (run === null) return [];
  return (run[1] as string).split(/\s+/).filter((word) => word.includes("/") && !word.startsWith("-"));
}

/** Why `script` is not a file of the repository, or undefined when it is. */
function missingScript(script: string, repository: Repository): string | undefined {
  const path = script.replace(/^\.\//, "");
  if (/^(\/|~|\$HOME)/.test(path)) return `${script} is not in the repository (temporary folders and ~ are for outputs only)`;
  if (path.startsWith("runs/")) return `${script} is in runs/, which holds outputs, not scripts`;
  if (repository.holds(path)) return undefined;
  const built = /^dist\/(.+)\.js$/.exec(path);
  if (built !== null && (repository.holds(`${built[1]}.ts`) || repository.holds(`${built[1]}.mts`))) return undefined;
  return `${script} is not a file of the repository${built === null ? "" : ` (nor is ${built[1]}.ts, which would build it)`}`;
}

/** Every breach of the rules in `markdown` (RESULTS.md's text), as `RESULTS.md:line: problem`; empty when it keeps them. */
export function resultsProblems(markdown: string, repository: Repository): string[] {
  const problems: string[] = [];
  const lines = markdown.split("\n");
  const { sections } = readResultsSections(markdown);
  const historicalLines = new Set<number>();
  for (const section of sections) {
    const where = `RESULTS.md:${section.line} (${section.heading})`;
    for (const note of section.historical) {
      note.text.split("\n").forEach((_, offset) => historicalLines.add(note.line + offset));
      if (!repository.hasCommit(note.commit)) problems.push(`RESULTS.md:${note.line}: Historical names commit ${note.commit}, which this repository does not have`);
    }
    for (const malformed of section.malformedHistorical) {
      problems.push(`RESULTS.md:${malformed.line}: a paragraph that begins like a Historical note must read "Historical (commit <sha>): <why it cannot be rerun>"`);
    }
    for (const line of section.labelsWithoutBlock) problems.push(`RESULTS.md:${line}: a Command: label must be followed by a fenced block holding the commands`);
    const figures = figuresIn(section.prose);
    if (figures.length > 0 && section.commands.length === 0 && section.historical.length === 0) {
      problems.push(`${where}: states figures (${figures.slice(0, 3).join(", ")}${figures.length > 3 ? ", …" : ""}) with neither a Command: block nor a "Historical (commit <sha>): <why>" paragraph`);
    }
    for (const line of section.code.flatMap((code) => code.split("\n"))) {
      for (const script of scriptsRunBy(line)) {
        const missing = missingScript(script, repository);
        if (missing !== undefined) problems.push(`${where}: \`${line.trim()}\` runs ${missing}`);
      }
      for (const [, path] of line.matchAll(SCRIPT_PATH)) {
        if (!scriptsRunBy(line).includes(path as string)) problems.push(`${where}: ${path} names a script in a folder for outputs; commit it under benchmarks/ or scripts/, or mark its figures Historical`);
      }
      for (const path of vitestPaths(line)) {
        if (!repository.holds(path.replace(/^\.\//, "").replace(/\/$/, ""))) problems.push(`${where}: \`vitest run\` names ${path}, which the repository does not have`);
      }
    }
  }
  lines.forEach((line, index) => {
    const word = WORDS.exec(line);
    if (word !== null && !historicalLines.has(index + 1)) problems.push(`RESULTS.md:${index + 1}: "${word[0]}" outside a Historical paragraph: commit the harness and give its Command:, or say it on a "Historical (commit <sha>): …" line`);
  });
  return problems;
}
