import { join, sep } from "node:path";
import { packageRoot } from "../core/package-root.js";
import { firstUserFrame } from "./first-user-frame.js";

/** Where selfplay's own frames are: its sources, its build and its dependencies (one root for src/ and dist/). */
const OWN_FOLDERS = ((root) => [join(root, "src") + sep, join(root, "dist") + sep, join(root, "node_modules") + sep])(packageRoot(import.meta.url));

export interface ErrorReportOptions {
  /** `--verbose`: the stacks of the error and of every cause, selfplay's frames included. */
  verbose: boolean;
  /**
   * `input`: bad input, whose message stands alone (`error: <message>`); `explained`: a run that stopped for a
   * reason its message explains (`error: <name>: <message>`); `unexpected`: anything else, the same line with its
   * first frame in a user's file, if any, and a line saying how to see the stack.
   */
  kind: "input" | "explained" | "unexpected";
}

/**
 * What the CLI prints for an error, ending in a newline: its line, then each `cause` (what a user's reward
 * function, environment factory or evaluate threw, inside the selfplay error that names it) as
 * `  cause: TypeError: …` with its first frame in the user's file — never selfplay's frames, unless `verbose`.
 */
export function errorReport(error: unknown, { verbose, kind }: ErrorReportOptions): string {
  if (!(error instanceof Error)) return `error: ${String(error)}\n`;
  const causes = causesOf(error);
  if (verbose) return [`error: ${stackOf(error)}`, ...causes.map((cause) => `  cause: ${cause instanceof Error ? stackOf(cause) : String(cause)}`)].join("\n") + "\n";
  const lines = [`error: ${kind === "input" ? error.message : `${error.name}: ${error.message}`}`];
  if (kind === "unexpected") lines.push(...userFrameLines(error));
  for (const cause of causes) {
    lines.push(`  cause: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
    if (cause instanceof Error) lines.push(...userFrameLines(cause));
  }
  if (kind === "unexpected" || causes.length > 0) lines.push("(run again with --verbose for the stack)");
  return lines.join("\n") + "\n";
}

/** The error's causes, outermost first; a cycle ends the chain. */
function causesOf(error: Error): unknown[] {
  const causes: unknown[] = [];
  const seen = new Set<unknown>([error]);
  for (let cause: unknown = error.cause; cause !== undefined && !seen.has(cause); cause = cause instanceof Error ? cause.cause : undefined) {
    causes.push(cause);
    seen.add(cause);
  }
  return causes;
}

function stackOf(error: Error): string {
  return error.stack ?? `${error.name}: ${error.message}`;
}

/** The error's first frame in a user's file, indented under its line; none when every frame is selfplay's or Node's. */
function userFrameLines(error: Error): string[] {
  const frame = firstUserFrame(error.stack ?? "", OWN_FOLDERS);
  return frame === undefined ? [] : [`    ${frame}`];
}
