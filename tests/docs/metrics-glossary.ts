import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { docCommentOf, markdownTable } from "./doc-comments.js";

export interface GlossaryEntry {
  field: string;
  type: string;
  meaning: string;
}

/** Interfaces and zod object schemas (`const NameSchema = z.object({…})`) under `folder`, by name. */
function declarations(folder: string): Map<string, { node: ts.InterfaceDeclaration | ts.ObjectLiteralExpression; source: ts.SourceFile }> {
  const found = new Map<string, { node: ts.InterfaceDeclaration | ts.ObjectLiteralExpression; source: ts.SourceFile }>();
  for (const file of readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts"))) {
    const source = ts.createSourceFile(file, readFileSync(join(folder, file), "utf8"), ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement)) found.set(statement.name.text, { node: statement, source });
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const call = declaration.initializer;
        const literal = call && ts.isCallExpression(call) ? call.arguments[0] : undefined;
        if (ts.isIdentifier(declaration.name) && literal && ts.isObjectLiteralExpression(literal)) found.set(declaration.name.text, { node: literal, source });
      }
    }
  }
  return found;
}

/**
 * The fields of a metrics line declared as `name` (an interface, with the interfaces it extends first, or a zod
 * object schema) in the source under `folder`: each field's type as written and the doc comment above it.
 */
export function glossaryOf(name: string, folder: string): GlossaryEntry[] {
  const all = declarations(folder);
  const entriesOf = (declared: string): GlossaryEntry[] => {
    const found = all.get(declared);
    if (!found) throw new Error(`${declared} is declared nowhere under ${folder}`);
    const { node, source } = found;
    if (ts.isObjectLiteralExpression(node)) {
      return node.properties.filter(ts.isPropertyAssignment).map((property) => ({ field: property.name.getText(source), type: property.initializer.getText(source).replace(/\s+/g, " "), meaning: docCommentOf(property) }));
    }
    const inherited = (node.heritageClauses ?? []).flatMap((clause) => clause.types.flatMap((type) => entriesOf(type.expression.getText(source))));
    const own = node.members.filter(ts.isPropertySignature).map((member) => ({
      field: member.name.getText(source) + (member.questionToken ? "?" : ""),
      type: (member.type?.getText(source) ?? "unknown").replace(/\s+/g, " "),
      meaning: docCommentOf(member),
    }));
    return [...inherited, ...own];
  };
  return entriesOf(name);
}

/** The entries as a Markdown table. */
export function glossaryTable(entries: readonly GlossaryEntry[]): string {
  return markdownTable(
    ["field", "type", "meaning"],
    entries.map((entry) => [`\`${entry.field}\``, `\`${entry.type}\``, entry.meaning]),
  );
}
