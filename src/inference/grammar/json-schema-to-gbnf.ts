import { UnsupportedSchemaError } from "../errors/index.js";
import type { JsonObject, JsonValue } from "../../core/json.js";
import { gbnfLiteral } from "./gbnf-literal.js";
import { integerRangeExpression, numberExpression } from "./gbnf-numbers.js";

/** Rules every compiled grammar may use, and the rules each uses. Strings exclude control characters; numbers have no exponent. */
const BASE_RULES: Record<string, { body: string; uses: readonly string[] }> = {
  ws: { body: '" "?', uses: [] },
  char: { body: String.raw`[^"\\\x00-\x1F\x7F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})`, uses: [] },
  // A bounded string counts characters as JavaScript (and zod's maxLength) does: one per UTF-16 unit. llama.cpp's
  // grammar decodes bytes leniently, so invalid or overlong UTF-8 from a byte-level model, astral characters and
  // C1 controls would count once there and several times here; this class admits only characters both count once.
  "bmp-char": {
    body: String.raw`[\x20\x21\x23-\x5B\x5D-\x7E\u00A0-\uD7FF\uE000-\uFFFD] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})`,
    uses: [],
  },
  string: { body: String.raw`"\"" char* "\""`, uses: ["char"] },
  boolean: { body: '"true" | "false"', uses: [] },
  null: { body: '"null"', uses: [] },
  integer: { body: '"-"? ("0" | [1-9] [0-9]{0,15})', uses: [] },
  number: { body: 'integer ("." [0-9]{1,15})?', uses: ["integer"] },
  value: { body: "object-any | array-any | string | number | boolean | null", uses: ["object-any", "array-any", "string", "number", "boolean", "null"] },
  "object-any": { body: '"{" ws (string ws ":" ws value ("," ws string ws ":" ws value)*)? ws "}"', uses: ["ws", "string", "value"] },
  "array-any": { body: '"[" ws (value ("," ws value)*)? ws "]"', uses: ["ws", "value"] },
};

/** Keywords a grammar cannot honour; a schema using them is refused rather than silently loosened. */
const REFUSED_KEYWORDS = ["not", "if", "then", "else", "patternProperties", "dependentSchemas", "contains"];

/**
 * Compiles a JSON Schema (the subset zod's `toJSONSchema` emits) to a GBNF
 * grammar whose every sentence is compact JSON of that shape. What the
 * grammar bounds exactly: object keys (all properties, in declared order;
 * optional ones are always emitted), enums and consts, string lengths, array
 * lengths, small integer ranges, `[0, 1]` numbers, no exponents. What it only
 * approximates (patterns, formats, wide numeric ranges, refinements) the
 * caller checks by validating the parsed output.
 */
export function jsonSchemaToGbnf(schema: JsonObject): string {
  const compiler = new GrammarCompiler(schema);
  const root = compiler.expression(schema, "(root)", "value-root");
  const lines = [`root ::= ${root}`];
  for (const [name, body] of compiler.rules) lines.push(`${name} ::= ${body}`);
  return `${lines.join("\n")}\n`;
}

class GrammarCompiler {
  /** Rules in the order they were first needed; `root` is written apart. */
  readonly rules = new Map<string, string>();
  private readonly referenced = new Map<string, string>();

  constructor(private readonly rootSchema: JsonObject) {}

  /** A GBNF expression matching `schema`; `path` names it in errors and `name` its rules. */
  expression(schema: JsonValue, path: string, name: string): string {
    if (schema === true) return this.base("value");
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError(path, `a schema object (got ${JSON.stringify(schema)})`);
    }
    for (const keyword of REFUSED_KEYWORDS) {
      if (keyword in schema) throw new UnsupportedSchemaError(path, `the keyword "${keyword}", which a grammar cannot enforce`);
    }
    if (typeof schema.$ref === "string") return this.reference(schema.$ref, path);
    if (schema.const !== undefined) return gbnfLiteral(JSON.stringify(schema.const));
    if (Array.isArray(schema.enum)) return alternatives(schema.enum.map((value) => gbnfLiteral(JSON.stringify(value))));
    const choices = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(choices)) {
      return alternatives(choices.map((choice, index) => this.expression(choice, `${path}.anyOf[${index}]`, `${name}-${index}`)));
    }
    if (Array.isArray(schema.allOf)) {
      if (schema.allOf.length !== 1) throw new UnsupportedSchemaError(path, "allOf with one member (intersections cannot be compiled)");
      return this.expression(schema.allOf[0] as JsonValue, `${path}.allOf[0]`, name);
    }
    if (Array.isArray(schema.type)) {
      return alternatives(schema.type.map((type) => this.expression({ ...schema, type }, path, `${name}-${String(type)}`)));
    }
    switch (schema.type) {
      case "object":
        this.base("ws");
        return this.rule(name, this.objectBody(schema, path, name));
      case "array":
        this.base("ws");
        return this.rule(name, this.arrayBody(schema, path, name));
      case "string":
        return this.stringExpression(schema, name);
      case "integer":
        return integerRangeExpression(numeric(schema.minimum), numeric(schema.maximum)) ?? this.base("integer");
      case "number":
        return numberExpression(numeric(schema.minimum ?? schema.exclusiveMinimum), numeric(schema.maximum ?? schema.exclusiveMaximum)) ?? this.base("number");
      case "boolean":
        return this.base("boolean");
      case "null":
        return this.base("null");
      case undefined:
        return this.base("value");
      default:
        throw new UnsupportedSchemaError(path, `a JSON type (got ${JSON.stringify(schema.type)})`);
    }
  }

  private objectBody(schema: JsonObject, path: string, name: string): string {
    const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    if (properties.length === 0) {
      const additional = schema.additionalProperties;
      if (additional === false) return '"{" ws "}"';
      const value = isObject(additional) ? this.expression(additional, `${path}.additionalProperties`, `${name}-value`) : this.base("value");
      const entry = `${this.base("string")} ws ":" ws ${value}`;
      return `"{" ws (${entry} ("," ws ${entry})*)? ws "}"`;
    }
    const members = properties.map(([key, propertySchema]) => {
      const value = this.expression(propertySchema, `${path}.properties.${key}`, `${name}-${ruleSafe(key)}`);
      return `${gbnfLiteral(JSON.stringify(key))} ws ":" ws ${value}`;
    });
    return `"{" ws ${members.join(' "," ws ')} ws "}"`;
  }

  private arrayBody(schema: JsonObject, path: string, name: string): string {
    if (Array.isArray(schema.prefixItems)) {
      const items = schema.prefixItems.map((item, index) => this.expression(item, `${path}.prefixItems[${index}]`, `${name}-${index}`));
      return items.length === 0 ? '"[" ws "]"' : `"[" ws ${items.join(' "," ws ')} ws "]"`;
    }
    const item = schema.items === undefined ? this.base("value") : this.expression(schema.items, `${path}.items`, `${name}-item`);
    const minimum = numeric(schema.minItems) ?? 0;
    const maximum = numeric(schema.maxItems);
    if (maximum !== undefined && maximum < minimum) throw new UnsupportedSchemaError(path, "minItems ≤ maxItems");
    if (maximum === 0) return '"[" ws "]"';
    const more = `("," ws ${item})${repetition(Math.max(minimum - 1, 0), maximum === undefined ? undefined : maximum - 1)}`;
    return minimum === 0 ? `"[" ws (${item} ${more})? ws "]"` : `"[" ws ${item} ${more} ws "]"`;
  }

  private stringExpression(schema: JsonObject, name: string): string {
    const minimum = numeric(schema.minLength) ?? 0;
    const maximum = numeric(schema.maxLength);
    if (minimum === 0 && maximum === undefined) return this.base("string");
    this.base("bmp-char");
    return this.rule(`${name}-string`, `"\\"" bmp-char${repetition(minimum, maximum)} "\\""`);
  }

  private reference(reference: string, path: string): string {
    const known = this.referenced.get(reference);
    if (known) return known;
    const target = resolvePointer(this.rootSchema, reference, path);
    const name = `ref-${ruleSafe(reference.replace(/^#\/?/, "").replace(/^\$?defs\//, "")) || "root"}`;
    this.referenced.set(reference, name);
    // Registered before compiling so a recursive schema refers to the rule instead of recursing forever.
    this.rules.set(name, "");
    this.rules.set(name, this.expression(target, reference, name));
    return name;
  }

  /** Adds a base rule (and the ones it uses) on first use; returns its name. */
  private base(name: string): string {
    if (this.rules.has(name)) return name;
    const rule = BASE_RULES[name] as { body: string; uses: readonly string[] };
    this.rules.set(name, rule.body);
    for (const used of rule.uses) this.base(used);
    return name;
  }

  private rule(name: string, body: string): string {
    let unique = name;
    for (let suffix = 2; this.rules.has(unique); suffix++) unique = `${name}-${suffix}`;
    this.rules.set(unique, body);
    return unique;
  }
}

function alternatives(expressions: readonly string[]): string {
  return expressions.length === 1 ? (expressions[0] as string) : `(${expressions.join(" | ")})`;
}

function repetition(minimum: number, maximum: number | undefined): string {
  if (maximum === undefined) return minimum === 0 ? "*" : `{${minimum},}`;
  return `{${minimum},${maximum}}`;
}

function numeric(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** GBNF rule names are letters, digits and dashes. */
function ruleSafe(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

function resolvePointer(root: JsonObject, reference: string, path: string): JsonValue {
  if (!reference.startsWith("#")) throw new UnsupportedSchemaError(path, `a local $ref starting with "#" (got ${reference})`);
  let target: JsonValue = root;
  for (const segment of reference.slice(1).split("/").filter(Boolean)) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    target = isObject(target) ? (target[key] as JsonValue) : undefined as unknown as JsonValue;
    if (target === undefined) throw new UnsupportedSchemaError(path, `a $ref that resolves (${reference} does not)`);
  }
  return target;
}
