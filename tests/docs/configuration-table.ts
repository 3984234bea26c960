import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { z } from "zod";
import { docCommentOf, markdownTable } from "./doc-comments.js";

/** One documented key of a zod object schema in the source: its doc comment, and the schema its value is built from, if any. */
interface SourceKey {
  comment: string;
  valueSchema: string | undefined;
}

/** The leftmost identifier of `FooSchema.default(…)`, `FooSchema.optional()`, `z.enum(…)`: what a value is built from. */
function rootIdentifier(expression: ts.Expression): string | undefined {
  let node: ts.Node = expression;
  for (;;) {
    if (ts.isCallExpression(node)) node = node.expression;
    else if (ts.isPropertyAccessExpression(node)) node = node.expression;
    else if (ts.isParenthesizedExpression(node)) node = node.expression;
    else break;
  }
  return ts.isIdentifier(node) ? node.text : undefined;
}

/** The object literal of the first `z.object({…})` / `z.strictObject({…})` call in an initializer. */
function objectLiteralOf(initializer: ts.Node): ts.ObjectLiteralExpression | undefined {
  let found: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ["object", "strictObject"].includes(node.expression.name.text)) {
      const argument = node.arguments[0];
      if (argument && ts.isObjectLiteralExpression(argument)) {
        found = argument;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(initializer);
  return found;
}

/** Every `const NameSchema = z.(strict)object({…})…` under `folder`, by name: its keys' doc comments and value schemas. */
export function indexSchemaSources(folder: string): Map<string, Map<string, SourceKey>> {
  const index = new Map<string, Map<string, SourceKey>>();
  const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(folder, file), "utf8"), ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.name.text.endsWith("Schema") || !declaration.initializer) continue;
        const literal = objectLiteralOf(declaration.initializer);
        if (!literal) continue;
        const keys = new Map<string, SourceKey>();
        for (const property of literal.properties) {
          if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) continue;
          keys.set(property.name.text, { comment: docCommentOf(property), valueSchema: rootIdentifier(property.initializer) });
        }
        index.set(declaration.name.text, keys);
      }
    }
  }
  return index;
}

interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  default?: unknown;
}

export interface ConfigurationRow {
  key: string;
  type: string;
  default: string;
  meaning: string;
}

function typeOf(node: JsonSchemaNode): string {
  if (node.enum) return node.enum.map((value) => JSON.stringify(value)).join(" or ");
  if (node.anyOf) return node.anyOf.map(typeOf).join(" or ");
  if (node.type === "array") return `array of ${node.items ? typeOf(node.items) : "values"}`;
  if (Array.isArray(node.type)) return node.type.join(" or ");
  return node.type ?? "JSON";
}

/**
 * Every leaf key of `schema` (named `schemaName` in the source under `sourceFolder`), with its type and default from
 * the schema itself and its meaning from the doc comment above the key in the source.
 */
export function configurationRows(schema: z.ZodType, schemaName: string, sourceFolder: string): ConfigurationRow[] {
  const index = indexSchemaSources(sourceFolder);
  const rows: ConfigurationRow[] = [];
  const walk = (node: JsonSchemaNode, path: string[], sourceSchema: string | undefined, inheritedDefault: unknown): void => {
    const keys = sourceSchema === undefined ? undefined : index.get(sourceSchema);
    if (node.properties && !(path.length > 0 && keys === undefined)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const parentDefault = (inheritedDefault as Record<string, unknown> | undefined)?.[key];
        const sourceKey = keys?.get(key);
        const childSource = sourceKey?.valueSchema !== undefined && index.has(sourceKey.valueSchema) ? sourceKey.valueSchema : undefined;
        if (child.properties && childSource !== undefined) walk(child, [...path, key], childSource, child.default ?? parentDefault);
        else rows.push(rowOf([...path, key], child, sourceKey?.comment ?? "", child.default ?? parentDefault));
      }
      return;
    }
    rows.push(rowOf(path, node, "", inheritedDefault));
  };
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchemaNode, [], schemaName, undefined);
  return rows;
}

function rowOf(path: string[], node: JsonSchemaNode, meaning: string, defaultValue: unknown): ConfigurationRow {
  return { key: path.join("."), type: typeOf(node), default: defaultValue === undefined ? "—" : JSON.stringify(defaultValue), meaning };
}

/** The rows as a Markdown table. */
export function configurationTable(rows: readonly ConfigurationRow[]): string {
  return markdownTable(
    ["key", "type", "default", "meaning"],
    rows.map((row) => [`\`${row.key}\``, row.type, row.default === "—" ? "—" : `\`${row.default}\``, row.meaning]),
  );
}
