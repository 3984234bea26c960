import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UnsupportedSchemaError } from "../../../src/inference/errors/index.js";
import { jsonSchemaConstraint } from "../../../src/core/structured/json-schema-constraint.js";
import { jsonSchemaToGbnf } from "../../../src/inference/grammar/json-schema-to-gbnf.js";
import { gbnfLiteral } from "../../../src/inference/grammar/gbnf-literal.js";

const grammarOf = (schema: z.ZodType) => {
  const constraint = jsonSchemaConstraint(schema);
  if (constraint.kind !== "json-schema") throw new Error("expected a json-schema constraint");
  return jsonSchemaToGbnf(constraint.schema);
};

const ruleOf = (grammar: string, name: string) => grammar.split("\n").find((line) => line.startsWith(`${name} ::= `))?.slice(name.length + 5);

describe("jsonSchemaToGbnf", () => {
  it("emits every property of an object in declared order, with bounded strings and arrays", () => {
    const grammar = grammarOf(
      z.object({ approved: z.boolean(), feedback: z.string().max(20), issues: z.array(z.string().max(8)).max(3) }),
    );
    expect(ruleOf(grammar, "root")).toBe("value-root");
    expect(ruleOf(grammar, "value-root")).toBe(
      '"{" ws "\\"approved\\"" ws ":" ws boolean "," ws "\\"feedback\\"" ws ":" ws value-root-feedback-string "," ws "\\"issues\\"" ws ":" ws value-root-issues ws "}"',
    );
    expect(ruleOf(grammar, "value-root-feedback-string")).toBe('"\\"" bmp-char{0,20} "\\""');
    expect(ruleOf(grammar, "value-root-issues")).toBe('"[" ws (value-root-issues-item-string ("," ws value-root-issues-item-string){0,2})? ws "]"');
  });

  it("spells out enums, consts and small integer ranges; bounds [0, 1] numbers without exponents", () => {
    const grammar = grammarOf(
      z.object({ kind: z.enum(["a", "b\"c"]), fixed: z.literal(3), level: z.number().int().min(1).max(3), score: z.number().min(0).max(1) }),
    );
    const root = ruleOf(grammar, "value-root") as string;
    expect(root).toContain('("\\"a\\"" | "\\"b\\\\\\"c\\"")');
    expect(root).toContain('"3"');
    expect(root).toContain('("1" | "2" | "3")');
    expect(root).toContain('("0" ("." [0-9]{1,4})? | "1" ("." "0"{1,4})?)');
    expect(grammar).not.toMatch(/[eE]"/);
  });

  it("compiles nullable values, unions, records and recursive references", () => {
    type Tree = { label: string; children: Tree[] };
    const TreeSchema: z.ZodType<Tree> = z.lazy(() => z.object({ label: z.string().max(4), children: z.array(TreeSchema).max(2) }));
    const grammar = grammarOf(z.object({ maybe: z.string().nullable(), either: z.union([z.number(), z.boolean()]), scores: z.record(z.string(), z.number()), tree: TreeSchema }));
    expect(grammar).toContain("null");
    expect(grammar).toMatch(/ref-[a-z0-9-]+ ::= /);
    // Every rule referenced is defined.
    const defined = new Set(grammar.trim().split("\n").map((line) => line.split(" ::= ")[0]));
    const bodies = grammar.trim().split("\n").map((line) => line.split(" ::= ")[1]!.replace(/\[(?:\\.|[^\]\\])*\]/g, "").replace(/"(?:\\.|[^"\\])*"/g, ""));
    for (const body of bodies) for (const name of body.match(/[a-z][a-z0-9-]*/g) ?? []) expect(defined).toContain(name);
  });

  it("refuses keywords a grammar cannot enforce, naming where they are", () => {
    expect(() => jsonSchemaToGbnf({ type: "object", properties: { a: { not: { type: "string" } } } })).toThrowError(UnsupportedSchemaError);
    expect(() => jsonSchemaToGbnf({ type: "object", properties: { a: { not: { type: "string" } } } })).toThrowError(/\(root\)\.properties\.a.*"not"/);
    expect(() => jsonSchemaToGbnf({ type: "date" })).toThrowError(/a JSON type/);
  });
});

describe("gbnfLiteral", () => {
  it("escapes quotes, backslashes and control characters", () => {
    expect(gbnfLiteral('a"b\\c\nd\u0001')).toBe('"a\\"b\\\\c\\nd\\x01"');
  });
});
