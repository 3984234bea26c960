import type { Node } from "acorn";
import { constantStrings, fixtureFilesWritten, resolveString } from "./fixture-files-written.js";
import { parseProgram } from "./parse-program.js";
import { baseName, matchesPattern, stringValue } from "./string-values.js";
import type { ValidatorRejection } from "./validator-rejection.js";
import { walkProgram } from "./walk-program.js";

/** What `checkValidatorQuality` reads of a challenge. */
export interface ValidatorQualityInput {
  /** The setup program's source; its written files are read from its AST unless `fixtureFiles` is given. */
  setup: string;
  validator: string;
  /** The file the solution writes; never counted as a fixture. */
  outputFile: string;
}

/** Options of `checkValidatorQuality`. */
export interface ValidatorQualityOptions {
  /**
   * File names the setup actually wrote (from running it); more exact than
   * reading its source. Default: the names read from the setup's AST.
   */
  fixtureFiles?: readonly string[];
}

/** The quality gate's verdict: accepted, or the first rejection found. */
export type ValidatorQualityVerdict = { accepted: true } | { accepted: false; rejection: ValidatorRejection };

const CRYPTO_RANDOM = new Set(["randomBytes", "randomInt", "randomUUID", "randomFill", "randomFillSync", "getRandomValues", "pseudoRandomBytes"]);
const CRYPTO_MODULES = new Set(["crypto", "node:crypto"]);

/**
 * The validator quality gate (the seed's validate_challenge_quality): rejects a
 * validator that draws random numbers, reads the clock, names none of the
 * setup's fixture files or never names the output file. Works on acorn's AST,
 * so comments and strings that merely mention `Math.random` do not count.
 */
export function checkValidatorQuality(input: ValidatorQualityInput, options: ValidatorQualityOptions = {}): ValidatorQualityVerdict {
  const parsed = parseProgram(input.validator);
  if (!parsed.ok) {
    return reject({ kind: "unparseable", message: `the validator does not parse (${parsed.message}); write a valid Node 20 CommonJS program` });
  }
  const program = parsed.program;
  const nondeterminism = findNondeterminism(program);
  if (nondeterminism !== null) return reject(nondeterminism);

  const constants = constantStrings(program);
  const strings: string[] = [];
  walkProgram(program, (node) => {
    const value = node.type === "Identifier" ? null : resolveString(node, constants);
    if (value !== null) strings.push(baseName(value));
  });
  if (!strings.some((value) => value === input.outputFile || matchesPattern(input.outputFile, value))) {
    return reject({
      kind: "no-output-reference",
      message: `the validator never names the output file "${input.outputFile}"; read the solution's answer from "${input.outputFile}" in the working directory`,
    });
  }
  const fixtures = (options.fixtureFiles ?? fixtureFilesWritten(input.setup)).map(baseName).filter((name) => name !== input.outputFile);
  const referenced = fixtures.some((fixture) => strings.some((value) => matchesPattern(value, fixture) || matchesPattern(fixture, value)));
  if (!referenced) {
    const written = fixtures.length === 0 ? "none found" : fixtures.join(", ");
    return reject({
      kind: "no-fixture-reference",
      message: `the validator reads none of the files the setup writes (${written}); compute the expected answer from those fixture files`,
    });
  }
  return { accepted: true };
}

function reject(rejection: ValidatorRejection): ValidatorQualityVerdict {
  return { accepted: false, rejection };
}

/** The first random draw or clock read in the program, as a rejection. */
function findNondeterminism(program: Node): ValidatorRejection | null {
  let found: ValidatorRejection | null = null;
  const flag = (node: Node, kind: "randomness" | "clock", what: string): void => {
    if (found !== null) return;
    const fix =
      kind === "randomness"
        ? "the verdict must be the same on every run: compute everything from the fixture files, without random numbers"
        : "the verdict must not depend on when it runs: compute everything from the fixture files, without reading the clock";
    found = { kind, message: `the validator uses ${what} at line ${node.loc?.start.line ?? "?"}; ${fix}`, line: node.loc?.start.line };
  };
  walkProgram(program, (node) => {
    if (node.type === "MemberExpression") {
      const member = node as unknown as { object: Node; property: Node; computed: boolean };
      const objectName = member.object.type === "Identifier" ? (member.object as unknown as { name: string }).name : null;
      const propertyName = member.computed ? stringValue(member.property) : (member.property as unknown as { name?: string }).name ?? null;
      if (propertyName === null) return;
      if (objectName === "Math" && propertyName === "random") flag(node, "randomness", "Math.random");
      else if (CRYPTO_RANDOM.has(propertyName)) flag(node, "randomness", `${objectName ?? "crypto"}.${propertyName}`);
      else if (objectName === "Date" && propertyName === "now") flag(node, "clock", "Date.now");
      else if (objectName === "performance" && propertyName === "now") flag(node, "clock", "performance.now");
      else if (objectName === "process" && (propertyName === "hrtime" || propertyName === "uptime")) flag(node, "clock", `process.${propertyName}`);
    } else if (node.type === "NewExpression" || node.type === "CallExpression") {
      const call = node as unknown as { callee: Node; arguments: Node[] };
      const isDate = call.callee.type === "Identifier" && (call.callee as unknown as { name: string }).name === "Date";
      // new Date(value) is deterministic; new Date() and Date() read the clock.
      if (isDate && (node.type === "CallExpression" || call.arguments.length === 0)) flag(node, "clock", node.type === "CallExpression" ? "Date()" : "new Date()");
    } else if (node.type === "VariableDeclarator") {
      const declarator = node as unknown as { id: Node; init: Node | null };
      if (declarator.id.type === "ObjectPattern" && declarator.init !== null && requiresCrypto(declarator.init)) {
        const properties = (declarator.id as unknown as { properties: { key?: Node }[] }).properties;
        for (const property of properties) {
          const name = property.key === undefined ? null : (property.key as unknown as { name?: string }).name;
          if (name !== undefined && name !== null && CRYPTO_RANDOM.has(name)) flag(node, "randomness", `crypto's ${name}`);
        }
      }
    } else if (node.type === "ImportDeclaration") {
      const declaration = node as unknown as { source: Node; specifiers: { imported?: Node }[] };
      if (!CRYPTO_MODULES.has(stringValue(declaration.source) ?? "")) return;
      for (const specifier of declaration.specifiers) {
        const name = specifier.imported === undefined ? null : (specifier.imported as unknown as { name?: string }).name;
        if (name !== undefined && name !== null && CRYPTO_RANDOM.has(name)) flag(node, "randomness", `crypto's ${name}`);
      }
    }
  });
  return found;
}

function requiresCrypto(node: Node): boolean {
  if (node.type !== "CallExpression") return false;
  const call = node as unknown as { callee: Node; arguments: Node[] };
  const isRequire = call.callee.type === "Identifier" && (call.callee as unknown as { name: string }).name === "require";
  const first = call.arguments[0];
  return isRequire && first !== undefined && CRYPTO_MODULES.has(stringValue(first) ?? "");
}
