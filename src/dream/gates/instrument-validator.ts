import type { Node } from "acorn";
import { outputReads } from "./output-taint.js";
import { parseProgram } from "./parse-program.js";
import { walkProgram } from "./walk-program.js";

/** Marks the probe's dump on stdout; fixed text, so the probe itself stays deterministic. */
export const SELF_TEST_SENTINEL = "<<selfplay-validator-self-test>>";
/** The probe's exit code after dumping: tells a probe that reached its dump from one that stopped earlier. */
export const SELF_TEST_EXIT_CODE = 42;

/** Variable names that hold a validator's expected answer, most likely first. */
const EXPECTED_NAME_GROUPS: readonly RegExp[] = [/^expected/i, /^golden/i, /^answer/i, /^(correct|want)/i];
/** Candidates dumped by one probe; later ones only matter when earlier encodings all fail. */
const MAX_CANDIDATES = 3;

/** An instrumented validator, or why the gate skips it. */
export type InstrumentedValidator =
  | { instrumented: true; probe: string; variables: string[]; line: number }
  | { instrumented: false; reason: string };

/**
 * Instruments a validator for the self-test gate: just before the statement
 * that first reads the solution's output file, inject a probe that dumps the
 * expected-answer variables in scope (`expected*`, `golden*`, `answer*`, …)
 * between sentinels and exits 42. Best effort: an unparseable validator, one
 * that never reads the output file, or one with no such variable in scope is
 * skipped, not blocked.
 */
export function instrumentValidator(validatorSource: string, outputFile: string): InstrumentedValidator {
  const parsed = parseProgram(validatorSource);
  if (!parsed.ok) return { instrumented: false, reason: `the validator does not parse: ${parsed.message}` };
  const read = outputReads(parsed.program, outputFile)[0];
  if (read === undefined) return { instrumented: false, reason: `the validator never reads ${outputFile}` };

  let statement: Node | null = null;
  let scopes: Node[] = [];
  walkProgram(parsed.program, (node, ancestors) => {
    if (node !== read) return;
    const chain = [...ancestors, node];
    for (let index = chain.length - 1; index > 0; index--) {
      const parent = chain[index - 1] as unknown as { type: string; body?: unknown };
      if ((parent.type === "Program" || parent.type === "BlockStatement") && Array.isArray(parent.body) && parent.body.includes(chain[index])) {
        statement = chain[index] as Node;
        scopes = chain.slice(0, index);
        return;
      }
    }
  });
  if (statement === null) return { instrumented: false, reason: `no statement to instrument around the read of ${outputFile}` };
  const insertAt = (statement as Node).start;

  // Declarations in a block that encloses the read; those finished before it first. A later one
  // (an outer variable a reading function sees when called) may be resolved by then; the probe's
  // try/catch drops it if not.
  const declared: { name: string; start: number; before: boolean }[] = [];
  walkProgram(parsed.program, (node, ancestors) => {
    if (node.type !== "VariableDeclarator") return;
    const id = (node as unknown as { id: Node }).id;
    if (id.type !== "Identifier") return;
    const block = [...ancestors].reverse().find((ancestor) => ancestor.type === "Program" || ancestor.type === "BlockStatement");
    if (block !== undefined && scopes.includes(block)) declared.push({ name: (id as unknown as { name: string }).name, start: node.start, before: node.end <= insertAt });
  });
  const variables: string[] = [];
  for (const group of EXPECTED_NAME_GROUPS) {
    const matching = declared.filter((item) => group.test(item.name));
    for (const entry of matching.sort((a, b) => Number(b.before) - Number(a.before) || a.start - b.start)) {
      if (!variables.includes(entry.name)) variables.push(entry.name);
    }
  }
  if (variables.length === 0) return { instrumented: false, reason: "no expected*/golden*/answer* variable is in scope before the output is read" };
  const chosen = variables.slice(0, MAX_CANDIDATES);
  const probe = validatorSource.slice(0, insertAt) + probeSource(chosen) + validatorSource.slice(insertAt);
  return { instrumented: true, probe, variables: chosen, line: (statement as Node).loc?.start.line ?? 0 };
}

/** The injected dump: each variable as `{name, text}` (strings) or `{name, json}` (Sets and Maps as arrays and objects). */
function probeSource(variables: readonly string[]): string {
  const readers = variables.map((name) => `[${JSON.stringify(name)}, () => ${name}]`).join(", ");
  return (
    `;{ const __selfTestDump = []; for (const [__name, __read] of [${readers}]) { try { const __value = __read();` +
    ` if (typeof __value === "string") __selfTestDump.push({ name: __name, text: __value });` +
    ` else if (__value !== undefined && typeof __value !== "function") __selfTestDump.push({ name: __name, json: JSON.stringify(__value instanceof Set ? [...__value] : __value instanceof Map ? Object.fromEntries(__value) : __value) }); } catch {} }` +
    ` process.stdout.write(${JSON.stringify(SELF_TEST_SENTINEL)} + JSON.stringify(__selfTestDump) + ${JSON.stringify(SELF_TEST_SENTINEL)});` +
    ` process.exit(${SELF_TEST_EXIT_CODE}); }\n`
  );
}
