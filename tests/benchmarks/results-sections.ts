/**
 * benchmarks/RESULTS.md read as sections: what each states, the commands it gives and the figures it marks historical.
 *
 * A section is a heading (`##` to `######`) and the lines up to the next heading of any level; the text under the
 * page's `#` title before the first section is the introduction. In a section, a paragraph that reads `Command:` or
 * `Commands:` (a parenthesis may come before the colon: `Commands (S the seed):`) labels the fenced block after it,
 * the commands that produce the section's figures from the repository root:
 *
 *     Command:
 *
 *     ```sh
 *     npm run build && node dist/benchmarks/arena-overhead.js
 *     ```
 *
 * and a paragraph that begins `Historical (commit <sha>): ` says why its figures cannot be rerun (the harness or
 * the code they measured is gone), the commit being the one they were recorded at.
 */

export interface ResultsCommand {
  /** 1-based line of the `Command:` label. */
  line: number;
  /** The fenced block's lines. */
  content: string;
}

export interface HistoricalNote {
  /** 1-based line where the paragraph starts. */
  line: number;
  commit: string;
  reason: string;
  /** The whole paragraph. */
  text: string;
}

export interface ResultsSection {
  heading: string;
  /** 2 for `##`, 3 for `###`, … */
  level: number;
  /** 1-based line of the heading. */
  line: number;
  /** The anchor GitHub gives the heading (lower case, punctuation dropped, spaces as hyphens, `-1`, `-2` for repeats). */
  anchor: string;
  /** The section's lines outside fenced blocks. */
  prose: string;
  /** Every fenced block's content and every inline code span: where a command can be written. */
  code: string[];
  commands: ResultsCommand[];
  historical: HistoricalNote[];
  /** Paragraphs that begin like a Historical note but do not have its form, with their lines. */
  malformedHistorical: { line: number; text: string }[];
  /** `Command:` labels not followed by a fenced block. */
  labelsWithoutBlock: number[];
}

const HEADING = /^(#{1,6}) (.*)$/;
const FENCE = /^\s*(`{3,})/;
const COMMAND_LABEL = /^Commands?(?: \(.+\))?:$/;
const HISTORICAL = /^Historical \(commit ([0-9a-f]{7,40})\): (\S[\s\S]*)$/;
const HISTORICAL_LIKE = /^historical\b/i;

/** The anchor GitHub gives a heading's text (before any `-1` suffix for repeats). */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
}

/** The page's introduction and its sections, in order. */
export function readResultsSections(markdown: string): { introduction: string; sections: ResultsSection[] } {
  const lines = markdown.split("\n");
  const sections: ResultsSection[] = [];
  const anchors = new Set<string>();
  const introduction: string[] = [];
  let section: ResultsSection | undefined;
  let paragraph: { line: number; lines: string[] } | undefined;
  let fence: { marker: string; lines: string[] } | undefined;
  let pendingLabel: number | undefined;

  const closeParagraph = () => {
    if (section === undefined || paragraph === undefined) return;
    const text = paragraph.lines.join("\n");
    const line = paragraph.line;
    paragraph = undefined;
    // A label may wrap over lines: it is the whole paragraph.
    if (COMMAND_LABEL.test(text.replace(/\n/g, " "))) {
      pendingLabel = line;
      return;
    }
    // Inline code may wrap onto the next line: spans are read from the paragraph as one line.
    for (const [, span] of text.replace(/\n/g, " ").matchAll(/`([^`]+)`/g)) section.code.push(span as string);
    const historical = HISTORICAL.exec(text);
    if (historical !== null) section.historical.push({ line, commit: historical[1] as string, reason: (historical[2] as string).trim(), text });
    else if (HISTORICAL_LIKE.test(text)) section.malformedHistorical.push({ line, text });
  };
  const closeLabel = () => {
    if (section !== undefined && pendingLabel !== undefined) section.labelsWithoutBlock.push(pendingLabel);
    pendingLabel = undefined;
  };

  for (const [index, line] of lines.entries()) {
    const number = index + 1;
    if (fence !== undefined) {
      const close = /^\s*(`{3,})\s*$/.exec(line);
      if (close !== null && (close[1] ?? "").length >= fence.marker.length) {
        const content = fence.lines.join("\n");
        section?.code.push(content);
        if (pendingLabel !== undefined) section?.commands.push({ line: pendingLabel, content });
        pendingLabel = undefined;
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening !== null) {
      closeParagraph();
      fence = { marker: opening[1] as string, lines: [] };
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null && (heading[1] as string).length >= 2) {
      closeParagraph();
      closeLabel();
      const text = (heading[2] as string).trim();
      const base = headingAnchor(text);
      let anchor = base;
      for (let repeat = 1; anchors.has(anchor); repeat++) anchor = `${base}-${repeat}`;
      anchors.add(anchor);
      section = { heading: text, level: (heading[1] as string).length, line: number, anchor, prose: "", code: [], commands: [], historical: [], malformedHistorical: [], labelsWithoutBlock: [] };
      sections.push(section);
      continue;
    }
    if (section === undefined) {
      introduction.push(line);
      continue;
    }
    section.prose += `${line}\n`;
    if (line.trim() === "") {
      closeParagraph();
      continue;
    }
    if (paragraph === undefined) {
      closeLabel();
      paragraph = { line: number, lines: [] };
    }
    paragraph.lines.push(line.trim());
  }
  closeParagraph();
  closeLabel();
  return { introduction: introduction.join("\n"), sections };
}
