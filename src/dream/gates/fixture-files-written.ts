import type { Node } from "acorn";
import { parseProgram } from "./parse-program.js";
import { baseName, stringValue } from "./string-values.js";
import { walkProgram } from "./walk-program.js";

const WRITE_CALLS = new Set(["writeFileSync", "writeFile", "appendFileSync", "appendFile", "createWriteStream", "copyFileSync", "copyFile"]);

/**
 * The file names a setup program writes, read from its AST: the first argument
 * of every fs write call (`copyFile*`: the destination), whether a literal, a
 * template (`data_${i}.csv` → `data_*.csv`), a `const` holding one, or the last
 * part of a `path.join(…)`. Base names only; empty when it does not parse.
 */
export function fixtureFilesWritten(setupSource: string): string[] {
  const parsed = parseProgram(setupSource);
  if (!parsed.ok) return [];
  const constants = constantStrings(parsed.program);
  const names = new Set<string>();
  walkProgram(parsed.program, (node) => {
    if (node.type !== "CallExpression") return;
    const call = node as unknown as { callee: Node; arguments: Node[] };
    const name = calleeName(call.callee);
    if (name === null || !WRITE_CALLS.has(name)) return;
    const target = name.startsWith("copyFile") ? call.arguments[1] : call.arguments[0];
    const value = target === undefined ? null : resolveString(target, constants);
    if (value !== null) names.add(baseName(value));
  });
  return [...names];
}

/** `fs.writeFileSync` → `writeFileSync`; `writeFileSync` → itself. */
export function calleeName(callee: Node): string | null {
  if (callee.type === "Identifier") return (callee as unknown as { name: string }).name;
  if (callee.type === "MemberExpression") {
    const property = (callee as unknown as { property: Node; computed: boolean }).property;
    if (property.type === "Identifier") return (property as unknown as { name: string }).name;
    return stringValue(property);
  }
  return null;
}

/** Top-level-or-nested `const NAME = "literal"` bindings (names are assumed not to be shadowed: best effort). */
export function constantStrings(program: Node): Map<string, string> {
  const constants = new Map<string, string>();
  walkProgram(program, (node) => {
    if (node.type !== "VariableDeclarator") return;
    const declarator = node as unknown as { id: Node; init: Node | null };
    if (declarator.id.type !== "Identifier" || declarator.init === null) return;
    const value = stringValue(declarator.init);
    if (value !== null) constants.set((declarator.id as unknown as { name: string }).name, value);
  });
  return constants;
}

/** A file-name argument as a string, following one level of `const` and `path.join`/`path.resolve`. */
export function resolveString(node: Node, constants: ReadonlyMap<string, string>): string | null {
  if (node.type === "Identifier") return constants.get((node as unknown as { name: string }).name) ?? null;
  if (node.type === "CallExpression") {
    const call = node as unknown as { callee: Node; arguments: Node[] };
    const name = calleeName(call.callee);
    const last = call.arguments[call.arguments.length - 1];
    if ((name === "join" || name === "resolve") && last !== undefined) return resolveString(last, constants);
    return null;
  }
  return stringValue(node);
}
