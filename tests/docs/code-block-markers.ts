/**
 * Code blocks in Markdown and the markers that say how each is checked.
 *
 * A block of a checked language (`ts`, `js`, `bash`, …) must have, on the line right before its opening fence, either
 *
 *   <!-- run-by: tests/some.test.ts -->      a test that reads this Markdown file and runs the block, or
 *   <!-- not-run: REASON -->                 why no test runs it ("needs a GPU", "illustrative output", …).
 *
 * A fence with no language is a problem too: output and text say `text` or `json`, so that a command cannot hide in
 * an unlabelled block.
 */

/** Fence languages whose blocks are code someone could run. */
export const CHECKED_LANGUAGES: ReadonlySet<string> = new Set(["ts", "tsx", "typescript", "js", "mjs", "javascript", "bash", "sh", "shell", "zsh", "console"]);

export type CodeBlockMarker = { kind: "run-by"; testFile: string } | { kind: "not-run"; reason: string };

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string's first word, lower-cased; "" when the fence has none. */
  language: string;
  /** The block's lines between the fences. */
  content: string;
  /** The marker on the line right before the opening fence, if that line is one. */
  marker?: CodeBlockMarker;
  /** A comment on the line right before the fence that looks like a marker but is not a valid one. */
  badMarker?: string;
}

const MARKER = /^<!--\s*(run-by|not-run)\s*:(.*?)-->$/;
const MARKER_LIKE = /^<!--\s*(run-by|not-run|run|not run|norun)\b/i;

/** Reads a marker comment; `undefined` when the line is not a marker, a string naming the problem when it is a bad one. */
function readMarker(line: string): CodeBlockMarker | string | undefined {
  const text = line.trim();
  const match = MARKER.exec(text);
  if (match === null) return MARKER_LIKE.test(text) ? `malformed marker ${JSON.stringify(text)}` : undefined;
  const value = (match[2] ?? "").trim();
  if (match[1] === "not-run") return value === "" ? "not-run marker without a reason" : { kind: "not-run", reason: value };
  if (!/^tests\/\S+\.test\.ts$/.test(value)) return `run-by marker must name one tests/….test.ts file, got ${JSON.stringify(value)}`;
  return { kind: "run-by", testFile: value };
}

/** Every fenced block of `markdown` (backtick fences, indented or not), with the marker before it. */
export function readCodeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  let open: { line: number; fence: string; language: string; body: string[]; marker?: CodeBlockMarker; badMarker?: string } | undefined;
  for (const [index, line] of lines.entries()) {
    if (open !== undefined) {
      const close = /^\s*(`{3,})\s*$/.exec(line);
      if (close !== null && (close[1] ?? "").length >= open.fence.length) {
        blocks.push({ line: open.line, language: open.language, content: open.body.join("\n"), ...(open.marker === undefined ? {} : { marker: open.marker }), ...(open.badMarker === undefined ? {} : { badMarker: open.badMarker }) });
        open = undefined;
      } else {
        open.body.push(line);
      }
      continue;
    }
    const start = /^\s*(`{3,})([^`]*)$/.exec(line);
    if (start === null) continue;
    const language = (start[2] ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    const marker = index > 0 ? readMarker(lines[index - 1] ?? "") : undefined;
    open = { line: index + 1, fence: start[1] ?? "```", language, body: [] };
    if (typeof marker === "string") open.badMarker = marker;
    else if (marker !== undefined) open.marker = marker;
  }
  if (open !== undefined) blocks.push({ line: open.line, language: open.language, content: open.body.join("\n"), badMarker: "the fence is never closed" });
  return blocks;
}

/** What is wrong with each block of `markdown`, as `file:line: problem`; empty when every block is accounted for. */
export function codeBlockProblems(file: string, markdown: string): string[] {
  const problems: string[] = [];
  for (const block of readCodeBlocks(markdown)) {
    const where = `${file}:${block.line}`;
    if (block.badMarker !== undefined) problems.push(`${where}: ${block.badMarker}`);
    else if (block.language === "") problems.push(`${where}: a fence without a language (use text or json for output, bash or ts for code)`);
    else if (CHECKED_LANGUAGES.has(block.language) && block.marker === undefined) {
      problems.push(`${where}: a ${block.language} block with no marker; put <!-- run-by: tests/….test.ts --> or <!-- not-run: reason --> on the line before it`);
    }
  }
  return problems;
}
