import type { Node } from "acorn";
import type { SandboxRunResult } from "../challenges/challenge-sandbox.js";
import { outputReads, mentionsOutput, outputTaintedNames } from "./output-taint.js";
import { parseProgram } from "./parse-program.js";
import { baseName } from "./string-values.js";
import { walkProgram } from "./walk-program.js";

/**
 * How a validator run ended:
 * - `passed`: exit 0;
 * - `failed`: the validator judged the solution's output wrong — a non-zero
 *   exit, a failed assertion, or an error raised while handling the output
 *   (malformed JSON, a missing field, the file not written);
 * - `validator-internal`: the validator broke on its own (see `classifyValidatorRun`);
 * - `killed`: the sandbox stopped it (time, memory, output cap).
 */
export type ValidatorRunKind = "passed" | "failed" | "validator-internal" | "killed";

/** The crash detector's verdict on one validator run. */
export interface ValidatorRunVerdict {
  kind: ValidatorRunKind;
  /** True for `validator-internal`: the cycle aborts after attempt 1 instead of burning every attempt on a broken validator. */
  abortsCycle: boolean;
  /** The uncaught error's class, e.g. `TypeError`; null when nothing was thrown. */
  errorName: string | null;
  /** 1-based validator line the error came from, when the stack names one. */
  line: number | null;
  /** One line on why, for logs and regeneration feedback. */
  explanation: string;
}

/** What `classifyValidatorRun` reads besides the run. */
export interface ClassifyValidatorRunOptions {
  /** The validator's source: its AST tells the validator's own code from its handling of the solution's output. */
  validatorSource: string;
  /** The file the solution writes. */
  outputFile: string;
}

/** The sandbox's reasons for a run it stopped, whatever the exit code (a heap limit can end in an abort's exit code). */
const STOPPED_BY_SANDBOX = new Set(["timeout", "memory", "disk", "output-cap", "process-limit", "signal"]);

/** Errors that are always the validator's own: it cannot even be loaded, or names something that does not exist. */
const STRUCTURAL = new Set(["SyntaxError", "ReferenceError"]);

/**
 * The widened crash detector. An uncaught error is validator-internal when it is
 * structural (a SyntaxError while loading, a ReferenceError, a missing module,
 * reading a file no program wrote) or when its top validator stack frame is in
 * code that does not touch the solution's output (TypeError, RangeError or any
 * thrown error in the validator's own computation). Errors raised while
 * reading, parsing or comparing the output count against the solution; so do
 * failed assertions. Only the validator runs in its process (no program starts
 * another), so every non-internal stack frame is the validator's.
 */
export function classifyValidatorRun(run: SandboxRunResult, options: ClassifyValidatorRunOptions): ValidatorRunVerdict {
  if (run.exitCode === 0) return verdict("passed", null, null, "the validator exited 0");
  if (run.exitCode === null || run.status === "killed" || STOPPED_BY_SANDBOX.has(run.reason ?? "")) return verdict("killed", null, null, `the sandbox stopped the validator: ${run.reason ?? run.status}`);
  const stderr = run.stderr;
  // Node prints its version after an uncaught exception; a validator that reports and exits does not.
  if (!/^Node\.js v\d+/m.test(stderr)) return verdict("failed", null, null, `the validator exited ${run.exitCode}`);

  const errorMatch = /^([A-Za-z_$][\w$]*)(?: \[(\w+)\])?: (.*)$/m.exec(stderr);
  const errorName = errorMatch?.[1] ?? "Error";
  const code = errorMatch?.[2] ?? null;
  const message = errorMatch?.[3] ?? "";
  const frames = [...stderr.matchAll(/^\s+at (.*)$/gm)].map((match) => match[1] as string);
  const validatorFrame = frames.map(frameLocation).find((location) => location !== null) ?? null;
  const headerLine = /^.+:(\d+)\r?$/m.exec(stderr.split(/\n\s*\n/)[0] ?? "");
  const line = validatorFrame?.line ?? (headerLine === null ? null : Number(headerLine[1]));

  if (errorName === "AssertionError" || code === "ERR_ASSERTION") return verdict("failed", errorName, line, "an assertion on the solution's output failed");
  const missing = /no such file or directory, \w+ '([^']+)'/.exec(message);
  if (code === "ENOENT" || missing !== null) {
    const file = missing?.[1] === undefined ? "" : baseName(missing[1]);
    if (file === options.outputFile) return verdict("failed", errorName, line, `the solution did not write ${options.outputFile}`);
    return verdict("validator-internal", errorName, line, `the validator reads ${file || "a file"} that no program wrote`);
  }
  if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND" || code === "ERR_REQUIRE_ESM") {
    return verdict("validator-internal", errorName, line, `the validator cannot load a module: ${message}`);
  }
  const parseError = errorName === "SyntaxError" && frames[0]?.startsWith("JSON.parse") === true;
  if (STRUCTURAL.has(errorName) && !parseError) return verdict("validator-internal", errorName, line, `${errorName} in the validator itself: ${message}`);

  const parsed = parseProgram(options.validatorSource);
  if (!parsed.ok || validatorFrame === null) {
    // Without a location to judge, a parse error is the output's and anything else the validator's.
    return parseError
      ? verdict("failed", errorName, line, "the solution's output is not valid JSON")
      : verdict("validator-internal", errorName, line, `${errorName} in the validator: ${message}`);
  }
  if (touchesOutput(parsed.program, validatorFrame, options.outputFile)) {
    return verdict("failed", errorName, line, `${errorName} while handling the solution's output: ${message}`);
  }
  return verdict("validator-internal", errorName, line, `${errorName} in the validator's own code at line ${validatorFrame.line}: ${message}`);
}

function verdict(kind: ValidatorRunKind, errorName: string | null, line: number | null, explanation: string): ValidatorRunVerdict {
  return { kind, abortsCycle: kind === "validator-internal", errorName, line, explanation };
}

/** `fn (/tmp/x/validator.js:12:5)` or `/tmp/x/validator.js:12:5` → line and column; null for node internals. */
function frameLocation(frame: string): { line: number; column: number } | null {
  const match = /(?:\(|^)([^()]+):(\d+):(\d+)\)?$/.exec(frame);
  if (match === null) return null;
  const path = match[1] as string;
  if (path.startsWith("node:") || path.startsWith("internal/") || path === "<anonymous>") return null;
  return { line: Number(match[2]), column: Number(match[3]) };
}

/**
 * Whether the innermost statement at a stack frame's position (its test, for
 * an if or a loop) or any enclosing condition up to its function reads the
 * solution's output.
 */
function touchesOutput(program: Node, frame: { line: number; column: number }, outputFile: string): boolean {
  const tainted = outputTaintedNames(program, outputFile);
  const reads = new Set(outputReads(program, outputFile));
  let chain: readonly Node[] = [];
  walkProgram(program, (node, ancestors) => {
    const loc = node.loc;
    if (loc === null || loc === undefined || !/Statement$|Declaration$/.test(node.type)) return;
    // Stack columns are 1-based, acorn's 0-based.
    const position = { line: frame.line, column: frame.column - 1 };
    const starts = loc.start.line < position.line || (loc.start.line === position.line && loc.start.column <= position.column);
    const ends = loc.end.line > position.line || (loc.end.line === position.line && loc.end.column > position.column);
    if (starts && ends) chain = [...ancestors, node];
  });
  for (let index = chain.length - 1; index >= 0; index--) {
    const node = chain[index] as Node;
    if (/Function/.test(node.type)) break;
    const fields = node as unknown as Record<string, Node | null | undefined>;
    const parts = node.type === "IfStatement" || /While|DoWhile/.test(node.type) ? [fields.test] : node.type === "ForStatement" ? [fields.init, fields.test, fields.update] : /For(Of|In)Statement/.test(node.type) ? [fields.right] : index === chain.length - 1 ? [node] : [];
    if (parts.some((part) => part !== null && part !== undefined && mentionsOutput(part, tainted, reads))) return true;
  }
  return false;
}
