/**
 * The first complete JSON object or array in `text`, parsed. Tolerates what
 * plain-text models wrap around JSON: prose before and after, Markdown code
 * fences. Throws a SyntaxError naming what it could not find.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    // Not bare JSON: look for an embedded value below.
  }
  for (let start = firstOpening(trimmed, 0); start >= 0; start = firstOpening(trimmed, start + 1)) {
    const end = matchingClose(trimmed, start);
    if (end < 0) continue;
    try {
      return JSON.parse(trimmed.slice(start, end + 1));
    } catch {
      // Balanced but not JSON (a `{placeholder}` in prose): try the next opening.
    }
  }
  throw new SyntaxError(`no JSON object or array in the output (${JSON.stringify(trimmed.slice(0, 80))})`);
}

function firstOpening(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] === "{" || text[index] === "[") return index;
  }
  return -1;
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings; -1 when unbalanced. */
function matchingClose(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === "\\") index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{" || character === "[") depth++;
    else if (character === "}" || character === "]") {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}
