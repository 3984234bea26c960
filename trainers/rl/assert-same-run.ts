import { resolve } from "node:path";
import { InvalidInputError } from "../../src/core/errors.js";
import type { JsonValue } from "../../src/core/json.js";
import { jsonDifferences } from "../checkpoint/json-differences.js";
import type { SelfPlayCheckpoint } from "./self-play-checkpoint.js";
import type { SelfPlayConfiguration } from "./self-play-configuration.js";

/**
 * Throws unless `modelPath` and `configuration` are the ones the checkpoint's
 * run started with: a run resumed with other settings would be neither the
 * old run nor a new one. The message names every field that differs.
 */
export function assertSameRun(directory: string, checkpoint: SelfPlayCheckpoint, modelPath: string, configuration: SelfPlayConfiguration): void {
  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as JsonValue;
  const differences = jsonDifferences(asJson({ model: checkpoint.modelPath, ...checkpoint.configuration }), asJson({ model: resolve(modelPath), ...configuration }));
  if (differences.length === 0) return;
  const listed = differences.map(({ path, before, after }) => `${path} ${JSON.stringify(before)} → ${JSON.stringify(after)}`).join(", ");
  throw new InvalidInputError(
    "--resume",
    `the model and configuration its run started with, but this resume differs in ${listed}; leave out --model, --config, --seed and --steps to go on as it was, or start a new run with --out`,
    directory,
  );
}
