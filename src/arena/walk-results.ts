import type { GenerateResult } from "../core/schemas/generate-result.js";

/** Every result of a forest of GenerateResult trees, parents before their children. */
export function* walkResults(results: readonly GenerateResult[]): Generator<GenerateResult> {
  for (const result of results) {
    yield result;
    yield* walkResults(result.children);
  }
}
