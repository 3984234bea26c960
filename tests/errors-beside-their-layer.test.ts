import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** Where the one class that extends `Error` itself lives; every other error class descends from it. */
const ROOT_ERROR = { name: "SelfplayError", folder: "src/core/errors" };

interface DeclaredClass {
  file: string;
  name: string;
  /** The name in the `extends` clause (the last part of `a.B`), or undefined for a class that extends nothing. */
  base: string | undefined;
}

/** Every named class a source declares, nested ones included. */
function classesOf(file: string, text: string): DeclaredClass[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const classes: DeclaredClass[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      const extendsClause = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
      const expression = extendsClause?.types[0]?.expression;
      let base: string | undefined;
      if (expression !== undefined) {
        if (ts.isIdentifier(expression)) base = expression.text;
        else if (ts.isPropertyAccessExpression(expression)) base = expression.name.text;
        else base = expression.getText(source);
      }
      classes.push({ file, name: node.name.text, base });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return classes;
}

function inErrorsFolder(file: string): boolean {
  return dirname(file).split("/").at(-1) === "errors";
}

/** `RolloutPoolError` → `rollout-pool-error.ts`. */
function fileNameOf(className: string): string {
  return `${className.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/([A-Z])([A-Z][a-z])/g, "$1-$2").toLowerCase()}.ts`;
}

/** Every misplaced, misnamed or unrooted error class, as readable lines. */
function errorClassViolations(classes: readonly DeclaredClass[]): string[] {
  const byName = new Map(classes.map((declared) => [declared.name, declared]));
  // A base from outside src (a library's `CommanderError`) counts as an error by its name.
  const isError = (declared: DeclaredClass, seen = new Set<string>()): boolean => {
    if (declared.name.endsWith("Error") || declared.base === "Error") return true;
    if (declared.base === undefined || seen.has(declared.name)) return false;
    seen.add(declared.name);
    const base = byName.get(declared.base);
    return base === undefined ? declared.base.endsWith("Error") : isError(base, seen);
  };
  const isRoot = (declared: DeclaredClass) =>
    declared.name === ROOT_ERROR.name && dirname(declared.file) === ROOT_ERROR.folder && declared.base === "Error";
  const isRooted = (declared: DeclaredClass, seen = new Set<string>()): boolean => {
    if (isRoot(declared)) return true;
    if (declared.base === undefined || seen.has(declared.name)) return false;
    seen.add(declared.name);
    const base = byName.get(declared.base);
    return base !== undefined && isRooted(base, seen);
  };
  const violations: string[] = [];
  for (const declared of classes.filter((candidate) => isError(candidate))) {
    const { file, name } = declared;
    if (!inErrorsFolder(file)) violations.push(`${file} declares ${name} outside an errors/ folder`);
    else if (basename(file) !== fileNameOf(name)) violations.push(`${file} declares ${name}, which belongs in ${fileNameOf(name)}`);
    if (!isRooted(declared)) violations.push(`${file}: ${name} does not extend ${ROOT_ERROR.name}`);
  }
  return violations;
}

function sourceClasses(folder: string): DeclaredClass[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".ts"))
    .map((entry) => join(folder, entry))
    .flatMap((file) => classesOf(file, readFileSync(join(root, file), "utf8")));
}

describe("errors beside their layer", () => {
  const classes = sourceClasses("src");

  it("reads the real source tree", () => {
    const names = classes.map((declared) => declared.name);
    expect(names).toContain("SelfplayError");
    expect(names).toContain("GgufError");
    expect(classes.find((declared) => declared.name === "NotGgufError")).toEqual({
      file: "src/gguf/errors/not-gguf-error.ts",
      name: "NotGgufError",
      base: "GgufError",
    });
  });

  it("declares every error class in its own file in an errors/ folder, descended from SelfplayError", () => {
    expect(errorClassViolations(classes)).toEqual([]);
  });

  it("catches an error class outside errors/, one in a misnamed file and one not rooted in SelfplayError", () => {
    const sources: Record<string, string> = {
      "src/core/errors/selfplay-error.ts": "export class SelfplayError extends Error {}",
      "src/arena/errors/rollout-pool-error.ts": "export class RolloutPoolError extends SelfplayError {}",
      "src/arena/arena.ts": [
        "export class Arena {}",
        "export class StrayError extends SelfplayError {}",
        "function make() { return class Wrapped extends RolloutPoolError {}; }",
      ].join("\n"),
      "src/gguf/errors/gguf-errors.ts": "export class NotGgufError extends SelfplayError {}",
      "src/tasks/dream/errors/ungradable-challenge-error.ts": "export class UngradableChallengeError extends Error {}",
      "src/inference/errors/library-wrapper-error.ts": "export class LibraryWrapperError extends commander.CommanderError {}",
    };
    const broken = Object.entries(sources).flatMap(([file, text]) => classesOf(file, text));
    expect(errorClassViolations(broken)).toEqual([
      "src/arena/arena.ts declares StrayError outside an errors/ folder",
      "src/arena/arena.ts declares Wrapped outside an errors/ folder",
      "src/gguf/errors/gguf-errors.ts declares NotGgufError, which belongs in not-gguf-error.ts",
      "src/tasks/dream/errors/ungradable-challenge-error.ts: UngradableChallengeError does not extend SelfplayError",
      "src/inference/errors/library-wrapper-error.ts: LibraryWrapperError does not extend SelfplayError",
    ]);
  });
});
