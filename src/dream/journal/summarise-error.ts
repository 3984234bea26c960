/** Characters an error summary keeps at most (the journal stores summaries, not whole logs). */
export const ERROR_SUMMARY_MAX_CHARS = 400;

const ERROR_LINE = /^\s*(?:Uncaught\s+)?[A-Za-z]*(?:Error|Exception)\b.*$/m;
const FRAME_LINE = /^\s+at .*$/m;
// Built from the code point: a literal escape character in a pattern reads as a typo to linters and people.
const COLOUR_CODE = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;]*m`, "g");

/**
 * A short summary of a failed attempt's stderr for the journal and for
 * lesson extraction: Node's error line and its first stack frame when there
 * is one (the frame says whose code threw), else the last non-empty lines;
 * at most `maxChars` characters.
 */
export function summariseError(stderr: string, maxChars: number = ERROR_SUMMARY_MAX_CHARS): string {
  // Terminal colour codes carry no information and would break the 6-token comparisons downstream.
  const text = stderr.replace(COLOUR_CODE, "");
  const errorLine = ERROR_LINE.exec(text);
  let summary: string;
  if (errorLine !== null) {
    const frame = FRAME_LINE.exec(text.slice(errorLine.index + errorLine[0].length));
    summary = [errorLine[0].trim(), frame?.[0].trim()].filter((line) => line !== undefined).join(" | ");
  } else {
    summary = text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .slice(-3)
      .join(" | ");
  }
  return summary.length <= maxChars ? summary : `${summary.slice(0, maxChars - 1)}…`;
}
