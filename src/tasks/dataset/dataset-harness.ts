import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import type { RubricEntry } from "./dataset-rubric.js";

/** What a dataset's episodes need that is not JSON: the prompt of a row, the rubric, and the row's ground truth where there is one. */
export interface DatasetHarness {
  readonly prompt: (item: JsonObject) => Messages;
  readonly rubric: readonly RubricEntry[];
  /** The answer the row's completion is checked against (the built-in `exactMatch`'s column), recorded as `artifacts.expected`; absent: none recorded. */
  readonly expected?: (item: JsonObject) => string;
}

interface HarnessRegistry {
  next: number;
  readonly byKey: Map<string, DatasetHarness>;
}

/**
 * The harnesses made in this thread, on `globalThis` so that every copy of
 * this module a thread loads (the build's and, under a test runner, the
 * sources') sees the same ones. Pool workers are other threads: they make
 * theirs again from the environment's module.
 */
function registry(): HarnessRegistry {
  const key = Symbol.for("selfplay.datasetHarnesses");
  const holder = globalThis as typeof globalThis & { [key]?: HarnessRegistry };
  holder[key] ??= { next: 0, byKey: new Map() };
  return holder[key];
}

/** Keeps a harness for this thread's episodes; its key goes into the (JSON) episode-module options. */
export function registerDatasetHarness(harness: DatasetHarness): string {
  const harnesses = registry();
  const key = `dataset-${harnesses.next++}`;
  harnesses.byKey.set(key, harness);
  return key;
}

/** The harness registered under `key` in this thread, or undefined. */
export function datasetHarness(key: string): DatasetHarness | undefined {
  return registry().byKey.get(key);
}
