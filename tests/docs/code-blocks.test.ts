import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { codeBlockProblems, readCodeBlocks } from "./code-block-markers.js";

const root = resolve(import.meta.dirname, "..", "..");

/** The anchors GitHub gives the headings of `markdown` (outside code blocks): lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading === null) continue;
    const base = (heading[1] ?? "").trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** README.md and every page in docs/, as repository-relative paths. */
function documentationFiles(): string[] {
  const pages = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...pages];
}

describe("code blocks in README.md and docs/", () => {
  it("each code block is run by a test or says why not (<!-- run-by: … --> or <!-- not-run: … --> before its fence)", () => {
    const problems = documentationFiles().flatMap((file) => codeBlockProblems(file, readFileSync(join(root, file), "utf8")));
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("each run-by marker names a test file that exists and reads that Markdown file", () => {
    const problems: string[] = [];
    for (const file of documentationFiles()) {
      for (const block of readCodeBlocks(readFileSync(join(root, file), "utf8"))) {
        if (block.marker?.kind !== "run-by") continue;
        const testPath = join(root, block.marker.testFile);
        if (!existsSync(testPath)) problems.push(`${file}:${block.line}: ${block.marker.testFile} does not exist`);
        else if (!readFileSync(testPath, "utf8").includes(file)) problems.push(`${file}:${block.line}: ${block.marker.testFile} never names ${file}, so it cannot be reading it`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("relative links between the pages point at files, and at headings, that exist", () => {
    const problems: string[] = [];
    for (const file of documentationFiles()) {
      const text = readFileSync(join(root, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const linked = path === "" ? join(root, file) : join(root, file, "..", path);
        if (!existsSync(linked)) problems.push(`${file}: ${target} (no such file)`);
        else if (anchor !== undefined && linked.endsWith(".md") && !headingAnchors(readFileSync(linked, "utf8")).has(anchor)) problems.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

describe("the marker parser", () => {
  it("reports an unmarked block with its file and line, and accepts marked ones", () => {
    const markdown = [
      "# Title",
      "",
      "```bash",
      "npx selfplay train",
      "```",
      "",
      "<!-- not-run: needs a GPU -->",
      "```ts",
      "await train();",
      "```",
      "",
      "<!-- run-by: tests/readme-environment.test.ts -->",
      "```js",
      "export const x = 1;",
      "```",
      "",
      "```text",
      "step 1/3",
      "```",
    ].join("\n");
    expect(codeBlockProblems("page.md", markdown)).toEqual([
      "page.md:3: a bash block with no marker; put <!-- run-by: tests/….test.ts --> or <!-- not-run: reason --> on the line before it",
    ]);
    expect(readCodeBlocks(markdown).map((block) => [block.line, block.language, block.marker])).toEqual([
      [3, "bash", undefined],
      [8, "ts", { kind: "not-run", reason: "needs a GPU" }],
      [13, "js", { kind: "run-by", testFile: "tests/readme-environment.test.ts" }],
      [17, "text", undefined],
    ]);
  });

  it("refuses a not-run marker without a reason, a run-by without a test file, a fence without a language and an unclosed fence", () => {
    const markdown = ["<!-- not-run: -->", "```sh", "ls", "```", "<!-- run-by: somewhere -->", "```ts", "x", "```", "```", "output", "```", "```bash", "ls"].join("\n");
    expect(codeBlockProblems("page.md", markdown)).toEqual([
      "page.md:2: not-run marker without a reason",
      'page.md:6: run-by marker must name one tests/….test.ts file, got "somewhere"',
      "page.md:9: a fence without a language (use text or json for output, bash or ts for code)",
      "page.md:12: the fence is never closed",
    ]);
  });

  it("needs the marker on the line right before the fence, and reads fences inside list items", () => {
    const markdown = ["<!-- not-run: too far away -->", "", "```bash", "ls", "```", "1. Step:", "   <!-- not-run: illustrative -->", "   ```bash", "   ls", "   ```"].join("\n");
    expect(codeBlockProblems("page.md", markdown)).toEqual([
      "page.md:3: a bash block with no marker; put <!-- run-by: tests/….test.ts --> or <!-- not-run: reason --> on the line before it",
    ]);
  });
});
