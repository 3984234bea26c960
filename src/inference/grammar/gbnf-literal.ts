/** `text` as a GBNF string literal: quotes, backslashes and control characters escaped. */
export function gbnfLiteral(text: string): string {
  let body = "";
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (character === '"' || character === "\\") body += `\\${character}`;
    else if (character === "\n") body += "\\n";
    else if (character === "\r") body += "\\r";
    else if (character === "\t") body += "\\t";
    else if (code < 0x20 || code === 0x7f) body += `\\x${code.toString(16).padStart(2, "0").toUpperCase()}`;
    else body += character;
  }
  return `"${body}"`;
}
