/**
 * The README's figures against the RESULTS.md sections they cite.
 *
 * A figure the README quotes from a measurement sits in a sentence that links the section it comes from,
 * `[RESULTS](benchmarks/RESULTS.md#anchor)`, one section a sentence, with the command that produced it in inline
 * code (`npx selfplay train --seed $S`). The sentence agrees with the section when
 *
 * - every figure it states (a number with a unit, as RESULTS.md's rule reads them) is one of the section's, as written;
 * - every `selfplay …` command in it is part of a line of the section's Command: blocks (`node dist/src/cli/main.js`
 *   and `npx selfplay` read as `selfplay`);
 * - no later section's Command: block has that line: a newer run of the same command is the one to quote.
 */
import { figuresIn } from "../benchmarks/results-problems.js";
import { readResultsSections } from "../benchmarks/results-sections.js";

export interface Citation {
  /** The sentence, its lines joined, links and all. */
  sentence: string;
  /** The RESULTS.md anchors it links. */
  anchors: string[];
}

const RESULTS_LINK = /\]\(benchmarks\/RESULTS\.md#([^)\s]+)\)/g;

/** The sentences of `markdown` (outside fenced blocks) that link a section of RESULTS.md. */
export function readmeCitations(markdown: string): Citation[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence || /^\s*```/.test(line) || line.trim() === "") {
      if (current.length > 0) paragraphs.push(current.join(" "));
      current = [];
    } else {
      current.push(line.trim());
    }
  }
  if (current.length > 0) paragraphs.push(current.join(" "));
  return paragraphs
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+(?=[A-Z0-9`(])/))
    .map((sentence) => ({ sentence, anchors: [...new Set([...sentence.matchAll(RESULTS_LINK)].map((match) => match[1] as string))] }))
    .filter((citation) => citation.anchors.length > 0);
}

/** A shell line as the comparison reads it: the CLI by its name, spaces collapsed. */
function normalised(command: string): string {
  return command.replace(/node dist\/src\/cli\/main\.js|npx selfplay/g, "selfplay").replace(/\s+/g, " ").trim();
}

/** Where each citation of `readme` disagrees with RESULTS.md (`results`); empty when all agree. */
export function citationProblems(readme: string, results: string): string[] {
  const { sections } = readResultsSections(results);
  const problems: string[] = [];
  for (const { sentence, anchors } of readmeCitations(readme)) {
    const quoted = JSON.stringify(sentence.length > 90 ? `${sentence.slice(0, 90)}…` : sentence);
    if (anchors.length > 1) {
      problems.push(`${quoted} cites ${anchors.length} sections of RESULTS.md; cite one a sentence, so that each figure has its source`);
      continue;
    }
    const index = sections.findIndex((section) => section.anchor === anchors[0]);
    const section = sections[index];
    if (section === undefined) {
      problems.push(`${quoted} cites RESULTS.md#${anchors[0]}, which is no heading of RESULTS.md`);
      continue;
    }
    const text = sentence.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const figures = new Set(figuresIn(section.prose));
    for (const figure of figuresIn(text)) {
      if (!figures.has(figure)) problems.push(`${quoted} states ${figure}, which RESULTS.md's "${section.heading}" does not: quote its figure as written`);
    }
    const lines = section.commands.flatMap((block) => block.content.split("\n")).map(normalised);
    const commands = [...text.matchAll(/`([^`]+)`/g)].map((match) => normalised(match[1] as string)).filter((code) => code.startsWith("selfplay "));
    for (const command of commands) {
      const runs = lines.filter((line) => line.includes(command));
      if (runs.length === 0) problems.push(`${quoted} gives \`${command}\`, which no Command: block of RESULTS.md's "${section.heading}" runs`);
      for (const later of sections.slice(index + 1)) {
        if (later.commands.some((block) => block.content.split("\n").some((line) => runs.includes(normalised(line))))) {
          problems.push(`${quoted} cites "${section.heading}", but "${later.heading}" (RESULTS.md:${later.line}) records a newer run of the same command: quote that one`);
        }
      }
    }
  }
  return problems;
}
