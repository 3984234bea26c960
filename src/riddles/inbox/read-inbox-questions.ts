/**
 * The questions in the inbox's text from byte `offset` on: each non-empty
 * line is a question (a leading "- " or "* " is dropped; "#" headings and
 * HTML comments are skipped). Only lines ended by a newline count, so a
 * question still being typed waits; `nextOffset` is where reading resumes.
 */
export function readInboxQuestions(content: Buffer, offset: number): { questions: string[]; nextOffset: number } {
  const end = content.lastIndexOf(0x0a) + 1;
  if (end <= offset) return { questions: [], nextOffset: offset };
  const questions = content
    .subarray(offset, end)
    .toString("utf8")
    .split("\n")
    .map((line) => line.trim().replace(/^[-*]\s+/, ""))
    .filter((line) => line.length > 0 && !line.startsWith("#") && !line.startsWith("<!--"));
  return { questions, nextOffset: end };
}
