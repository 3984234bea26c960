import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { UnknownActionError } from "../../src/tournament/errors/index.js";
import { canonicalJson } from "../../src/tournament/replay/canonical-json.js";
import { ActionSchema, parseAction } from "../../src/tournament/world/actions.js";
import { WorldConfigSchema } from "../../src/tournament/world/tournament-world.js";

const SOURCE = "src/tournament";

/**
 * What may not appear in the engine's code, as identifiers (comments and
 * strings are not code, so they may mention them): wall clocks, unseeded
 * randomness, locale-dependent comparison and formatting, and the float
 * parsing and printing that money must never need.
 */
const FORBIDDEN: Array<{ name: string; matches: (identifier: string, object: string | null) => boolean }> = [
  { name: "Math.random", matches: (identifier, object) => identifier === "random" && object === "Math" },
  { name: "Date", matches: (identifier) => identifier === "Date" },
  { name: "performance.now", matches: (identifier, object) => identifier === "now" && object === "performance" },
  { name: "localeCompare", matches: (identifier) => identifier === "localeCompare" },
  { name: "toLocale*", matches: (identifier) => identifier.startsWith("toLocale") },
  { name: "parseFloat", matches: (identifier) => identifier === "parseFloat" },
  { name: "toFixed", matches: (identifier) => identifier === "toFixed" },
];

/** `file:line: name` for every forbidden identifier in a TypeScript source (its syntax tree, so comments and strings are not code). */
function violations(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      // `x.name`: the object's name when it is a plain identifier (Math, performance).
      const object = parent !== undefined && ts.isPropertyAccessExpression(parent) && parent.name === node && ts.isIdentifier(parent.expression) ? parent.expression.text : null;
      for (const rule of FORBIDDEN) {
        if (rule.matches(node.text, object)) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${rule.name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".ts"))
    .sort()
    .map((entry) => join(folder, entry));
}

describe("determinism of the tournament engine", () => {
  it(`uses no wall clock, unseeded randomness, locale-dependent comparison or float formatting in ${SOURCE}`, () => {
    const files = sourceFiles(SOURCE);
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => violations(file, readFileSync(file, "utf8")))).toEqual([]);
  });

  it("finds each forbidden use in code, with its line, and not in comments or strings", () => {
    const planted = [
      "// Date, Math.random() and toFixed in a comment are fine",
      'const label = "localeCompare";',
      "const now = Date.now();",
      "const roll = Math.random();",
      "const tick = performance.now();",
      "names.sort((a, b) => a.localeCompare(b));",
      "const text = `${(1.5).toFixed(2)} ${value.toLocaleString()}`;",
      "const money = parseFloat(input);",
      "const pattern = /`/; const after = Math.random;",
    ].join("\n");
    expect(violations("planted.ts", planted)).toEqual([
      "planted.ts:3: Date",
      "planted.ts:4: Math.random",
      "planted.ts:5: performance.now",
      "planted.ts:6: localeCompare",
      "planted.ts:7: toFixed",
      "planted.ts:7: toLocale*",
      "planted.ts:8: parseFloat",
      "planted.ts:9: Math.random",
    ]);
  });

  it("refuses float money at every door: actions, the world's treasury and the canonical log", () => {
    expect(ActionSchema.safeParse({ type: "ProposeSpend", actor: "c0", amount: 1.5, recipient: "c1" }).success).toBe(false);
    expect(ActionSchema.safeParse({ type: "ProposeSpend", actor: "c0", amount: 2, recipient: "c1" }).success).toBe(true);
    expect(() => parseAction({ type: "ProposeSpend", actor: "c0", amount: 1.5, recipient: "c1" }, "action")).toThrow(UnknownActionError);
    expect(() => parseAction({ type: "ProposeSpend", actor: "c0", amount: 1.5, recipient: "c1" }, "action")).toThrow(/action\.amount/);
    expect(ActionSchema.safeParse({ type: "ProposeAmendment", actor: "c0", changes: { quorumPercent: 50.5 } }).success).toBe(false);
    expect(WorldConfigSchema.safeParse({ initialTreasury: 999.5 }).success).toBe(false);
    expect(() => canonicalJson({ amount: 0.1 })).toThrow(/not a safe integer/);
  });
});
