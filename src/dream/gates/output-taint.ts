import type { Node } from "acorn";
import { calleeName, constantStrings, resolveString } from "./fixture-files-written.js";
import { baseName } from "./string-values.js";
import { walkProgram } from "./walk-program.js";

const READ_CALLS = new Set(["readFileSync", "readFile", "createReadStream", "existsSync", "statSync", "stat", "access", "accessSync", "openSync", "open"]);

/** The calls in a program that read the solution's output file, in source order. */
export function outputReads(program: Node, outputFile: string): Node[] {
  const constants = constantStrings(program);
  const reads: Node[] = [];
  walkProgram(program, (node) => {
    if (node.type !== "CallExpression") return;
    const call = node as unknown as { callee: Node; arguments: Node[] };
    const name = calleeName(call.callee);
    const first = call.arguments[0];
    if (name === null || !READ_CALLS.has(name) || first === undefined) return;
    const value = resolveString(first, constants);
    if (value !== null && baseName(value) === outputFile) reads.push(node);
  });
  return reads;
}

/**
 * Names that hold data derived from the solution's output: assigned from an
 * output read or from another such name, function parameters that receive
 * one, and callback parameters of a method called on one
 * (`actual.forEach((row) => …)`). A best-effort fixed point, blind to
 * shadowing — enough to tell the validator's own arithmetic from its handling
 * of the solution's answer.
 */
export function outputTaintedNames(program: Node, outputFile: string): Set<string> {
  const reads = new Set(outputReads(program, outputFile));
  const tainted = new Set<string>();
  const functions = new Map<string, Node>();
  walkProgram(program, (node) => {
    if (node.type === "FunctionDeclaration") {
      const id = (node as unknown as { id: Node | null }).id;
      if (id !== null) functions.set((id as unknown as { name: string }).name, node);
    } else if (node.type === "VariableDeclarator") {
      const declarator = node as unknown as { id: Node; init: Node | null };
      const init = declarator.init;
      if (declarator.id.type === "Identifier" && init !== null && (init.type === "ArrowFunctionExpression" || init.type === "FunctionExpression")) {
        functions.set((declarator.id as unknown as { name: string }).name, init);
      }
    }
  });
  const mentions = (node: Node | null | undefined): boolean => node !== null && node !== undefined && mentionsOutput(node, tainted, reads);
  let changed = true;
  while (changed) {
    changed = false;
    const taint = (target: Node | null | undefined): void => {
      if (target === null || target === undefined) return;
      for (const name of boundNames(target)) {
        if (!tainted.has(name)) {
          tainted.add(name);
          changed = true;
        }
      }
    };
    walkProgram(program, (node) => {
      const fields = node as unknown as Record<string, Node | Node[] | null | undefined>;
      if (node.type === "VariableDeclarator" && mentions(fields.init as Node | null)) taint(fields.id as Node);
      else if (node.type === "AssignmentExpression" && mentions(fields.right as Node)) taint(fields.left as Node);
      else if ((node.type === "ForOfStatement" || node.type === "ForInStatement") && mentions(fields.right as Node)) taint(fields.left as Node);
      else if (node.type === "CallExpression") {
        const callee = fields.callee as Node;
        const args = fields.arguments as Node[];
        if (callee.type === "Identifier") {
          const target = functions.get((callee as unknown as { name: string }).name);
          const params = target === undefined ? [] : (target as unknown as { params: Node[] }).params;
          args.forEach((argument, index) => {
            if (mentions(argument)) taint(params[index]);
          });
        } else if (callee.type === "MemberExpression" && mentions((callee as unknown as { object: Node }).object)) {
          for (const argument of args) {
            if (argument.type === "ArrowFunctionExpression" || argument.type === "FunctionExpression") {
              for (const param of (argument as unknown as { params: Node[] }).params) taint(param);
            }
          }
        }
      }
    });
  }
  return tainted;
}

/** Whether a node reads the output file or names a tainted variable (property keys excluded). */
export function mentionsOutput(node: Node, tainted: ReadonlySet<string>, reads: ReadonlySet<Node>): boolean {
  let found = false;
  walkProgram(node, (child, ancestors) => {
    if (found) return;
    if (reads.has(child)) found = true;
    else if (child.type === "Identifier" && tainted.has((child as unknown as { name: string }).name)) {
      const parent = ancestors[ancestors.length - 1] as unknown as { type: string; property?: Node; computed?: boolean; key?: Node } | undefined;
      const isPropertyName = parent !== undefined && ((parent.type === "MemberExpression" && parent.property === child && parent.computed !== true) || (parent.type === "Property" && parent.key === child));
      if (!isPropertyName) found = true;
    }
  });
  return found;
}

/** Identifiers a binding target introduces: `x`, `{ a, b: c }`, `[d, ...e]`, `f = 1`. */
export function boundNames(target: Node): string[] {
  const names: string[] = [];
  walkProgram(target, (node, ancestors) => {
    if (node.type !== "Identifier") return;
    const parent = ancestors[ancestors.length - 1] as unknown as { type: string; key?: Node; value?: Node; right?: Node; computed?: boolean } | undefined;
    // In { key: value } only the value binds; in `a = default` only the left side does.
    if (parent?.type === "Property" && parent.key === node && parent.value !== node) return;
    if (parent?.type === "AssignmentPattern" && parent.right === node) return;
    if (parent?.type === "MemberExpression") return;
    names.push((node as unknown as { name: string }).name);
  });
  return names;
}
