import { readFile } from "node:fs/promises";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";

/** Fields that measure time, not training: they differ between any two runs. */
function isTiming(field: string): boolean {
  return field === "elapsedMs" || field.endsWith("Seconds") || field.endsWith("PerSecond");
}

/** Every line of a metrics.jsonl (torn lines are an error here), timing fields left out. */
export async function metricsWithoutTimings(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => Object.fromEntries(Object.entries(JSON.parse(line) as Record<string, unknown>).filter(([field]) => !isTiming(field))));
}

/**
 * Where two runs' metrics differ: the same lines and fields, the same
 * non-numbers, numbers within `1e-9 + 1e-6·|expected|`. The trainer is
 * bit-exact; the engine's logprobs are not (llama.cpp's batches mix the
 * sequences that happen to be decoding at once), which shows in the last
 * digits of `mismatchKl` and `importanceWeight`.
 */
export function metricsDifferences(actual: unknown, expected: unknown, path = "lines"): string[] {
  if (typeof actual === "number" && typeof expected === "number") {
    return Math.abs(actual - expected) <= 1e-9 + 1e-6 * Math.abs(expected) ? [] : [`${path}: ${actual} ≠ ${expected}`];
  }
  if (typeof actual === "object" && actual !== null && typeof expected === "object" && expected !== null && Array.isArray(actual) === Array.isArray(expected)) {
    const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])];
    return keys.flatMap((key) => metricsDifferences((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`));
  }
  return actual === expected ? [] : [`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`];
}

/** The largest |a − b| over every tensor of two GGUF files with the same tensors. */
export async function maxWeightDifference(pathA: string, pathB: string): Promise<number> {
  const [a, b] = [await GgufReader.open(pathA), await GgufReader.open(pathB)];
  try {
    if (a.tensors.map((tensor) => tensor.name).join() !== b.tensors.map((tensor) => tensor.name).join()) return Infinity;
    let largest = 0;
    for (const { name } of a.tensors) {
      const [valuesA, valuesB] = [await a.readTensor(name), await b.readTensor(name)];
      valuesA.forEach((value, index) => (largest = Math.max(largest, Math.abs(value - (valuesB[index] as number)))));
    }
    return largest;
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/**
 * Where two runs' rollouts.jsonl differ: every line and field exactly, but
 * each logprob to 1e-5 — the engine's float sums move by ~1e-6 with what a
 * sequence is batched with, and pooled and in-process runs batch differently.
 */
export async function rolloutsDifferences(actualPath: string, expectedPath: string): Promise<string[]> {
  const read = async (path: string) => (await readFile(path, "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as unknown);
  const [actual, expected] = [await read(actualPath), await read(expectedPath)];
  if (actual.length !== expected.length) return [`${actual.length} lines ≠ ${expected.length}`];
  return jsonDifferencesWithin(actual, expected, "lines", false);
}

function jsonDifferencesWithin(actual: unknown, expected: unknown, path: string, logprobs: boolean): string[] {
  if (logprobs && typeof actual === "number" && typeof expected === "number") {
    return Math.abs(actual - expected) <= 1e-5 ? [] : [`${path}: ${actual} ≠ ${expected}`];
  }
  if (typeof actual === "object" && actual !== null && typeof expected === "object" && expected !== null && Array.isArray(actual) === Array.isArray(expected)) {
    const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])];
    return keys.flatMap((key) =>
      jsonDifferencesWithin((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`, logprobs || key === "completionLogprobs"),
    );
  }
  return actual === expected ? [] : [`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`];
}
