import type { Node } from "acorn";

/** Called for every node, with its ancestors (outermost first, the node itself excluded). */
export type ProgramVisitor = (node: Node, ancestors: readonly Node[]) => void;

/**
 * Visits every ESTree node under `root` in source order. Written here rather
 * than taken from acorn-walk: the gates need only this one traversal, and any
 * object-valued property with a string `type` is a child node, whatever the
 * ECMAScript version added.
 */
export function walkProgram(root: Node, visitor: ProgramVisitor): void {
  const ancestors: Node[] = [];
  const visit = (node: Node): void => {
    visitor(node, ancestors);
    ancestors.push(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === "loc") continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) {
        visit(value);
      }
    }
    ancestors.pop();
  };
  visit(root);
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}
