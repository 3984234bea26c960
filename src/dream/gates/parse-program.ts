import { parse, type Program } from "acorn";

/** A parsed program, or why it did not parse. */
export type ParsedProgram = { ok: true; program: Program } | { ok: false; message: string };

/**
 * Parses a challenge program with acorn: as a CommonJS script first (what Node
 * runs a `.js` file as), then as a module, so both `require` and `import`
 * programs can be checked. Node-style `#!` lines are allowed.
 */
export function parseProgram(source: string): ParsedProgram {
  try {
    return { ok: true, program: parse(source, { ecmaVersion: "latest", sourceType: "script", allowHashBang: true, allowReturnOutsideFunction: true, locations: true }) };
  } catch (scriptError) {
    try {
      return { ok: true, program: parse(source, { ecmaVersion: "latest", sourceType: "module", allowHashBang: true, locations: true }) };
    } catch {
      return { ok: false, message: (scriptError as Error).message };
    }
  }
}
