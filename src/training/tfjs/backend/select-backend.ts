import * as tf from "@tensorflow/tfjs";
import { z } from "zod";
import { InvalidInputError } from "../../../core/errors/index.js";
import { parseInput } from "../../../core/parse-input.js";

/**
 * tfjs backends, best first: `tensorflow` (libtensorflow through
 * @tensorflow/tfjs-node-gpu or -node), `wasm` (XNNPACK; ~20× the cpu backend on
 * a transformer step) and `cpu` (plain JavaScript, always there).
 */
export const TfjsBackendNameSchema = z.enum(["tensorflow", "wasm", "cpu"]);
export type TfjsBackendName = z.infer<typeof TfjsBackendNameSchema>;

/** The packages that register each backend, tried in this order; cpu comes with @tensorflow/tfjs. */
const BACKEND_PACKAGES: Readonly<Record<TfjsBackendName, readonly string[]>> = {
  tensorflow: ["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"],
  wasm: ["@tensorflow/tfjs-backend-wasm"],
  cpu: ["@tensorflow/tfjs"],
};

export const SelectBackendOptionsSchema = z.strictObject({
  /** Backends to try, best first. Default: tensorflow, wasm, cpu. */
  candidates: z.array(TfjsBackendNameSchema).min(1).default(["tensorflow", "wasm", "cpu"]),
  /** Loads a backend package by name. Default: a dynamic `import()`; tests pass one that fails. */
  importPackage: z.custom<(name: string) => Promise<unknown>>((value) => typeof value === "function", "a function").optional(),
});
export type SelectBackendOptions = z.input<typeof SelectBackendOptionsSchema>;

/** A candidate that was passed over, and why. */
export interface RejectedBackend {
  backend: TfjsBackendName;
  package: string;
  reason: string;
}

/** The backend tfjs now runs on, and why the better ones are not used. */
export interface BackendSelection {
  backend: TfjsBackendName;
  /** The package that registered it. */
  package: string;
  /** Every better candidate that failed, best first. */
  rejected: RejectedBackend[];
}

const importPackageDefault = (name: string): Promise<unknown> => import(name);

/**
 * Makes the best backend that works the active tfjs backend and says which it
 * is. The native tfjs-node packages are optional peer dependencies, absent
 * unless a project installs them, and their binary may be missing: either is
 * recorded, never hidden, and
 * the next candidate is tried. The wasm backend finds its .wasm binaries next
 * to its own module under Node, so no `setWasmPaths` is needed.
 */
export async function selectBackend(options: SelectBackendOptions = {}): Promise<BackendSelection> {
  const { candidates, importPackage = importPackageDefault } = parseInput(SelectBackendOptionsSchema, options);
  const rejected: RejectedBackend[] = [];
  for (const backend of candidates) {
    for (const packageName of BACKEND_PACKAGES[backend]) {
      try {
        if (backend !== "cpu") await importQuietly(importPackage, packageName);
        if (!(await tf.setBackend(backend))) throw new Error(`tf.setBackend("${backend}") failed to initialise it`);
        await tf.ready();
        return { backend, package: packageName, rejected };
      } catch (error) {
        rejected.push({ backend, package: packageName, reason: isNotInstalled(error) ? `not installed (an optional peer dependency: npm install ${packageName})` : firstLine(error) });
      }
    }
  }
  throw new InvalidInputError(
    "candidates",
    `a list with a backend that starts (${rejected.map((entry) => `${entry.package}: ${entry.reason}`).join("; ")})`,
    candidates,
  );
}

/**
 * Imports a backend package with tfjs's warnings off: tfjs-node registers its
 * kernels before it finds its binary missing, so the second tensorflow package
 * would print "kernel … is already registered" ~150 times. The PROD flag only
 * silences tfjs's logging.
 */
async function importQuietly(importPackage: (name: string) => Promise<unknown>, packageName: string): Promise<void> {
  const environment = tf.env();
  const production = environment.getBool("PROD");
  environment.set("PROD", true);
  try {
    await importPackage(packageName);
  } finally {
    environment.set("PROD", production);
  }
}

/** Whether an import failed because the package is not installed at all (rather than failing to load). */
function isNotInstalled(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" || /Cannot find package|Could not resolve/.test(message);
}

/** One line of a message: tfjs-node's missing-binary error runs to several paragraphs. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").find((line) => line.trim() !== "")?.trim() ?? message;
}

/** A one-line account of a selection, for logs: `wasm (@tensorflow/tfjs-backend-wasm); not tensorflow: …`. */
export function describeBackendSelection(selection: BackendSelection): string {
  const passedOver = selection.rejected.map((entry) => `not ${entry.package}: ${entry.reason}`);
  return [`${selection.backend} (${selection.package})`, ...passedOver].join("; ");
}
