import type { JsonObject } from "../../core/json.js";
import type { Environment } from "../../environments/environment.js";

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `defaults` under `input`, object by object: a key `input` sets wins, however deep; arrays and values replace. */
function underlay(defaults: Record<string, unknown>, input: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(input)) {
    const fallback = merged[key];
    merged[key] = isPlainObject(fallback) && isPlainObject(value) ? underlay(fallback, value) : value;
  }
  return merged;
}

/** A training configuration's input with the environment's own `trainingDefaults` filled in beneath it. */
export function withTrainingDefaults(environment: Pick<Environment, "trainingDefaults">, input: unknown): unknown {
  const defaults: JsonObject = environment.trainingDefaults ?? {};
  return isPlainObject(input) ? underlay(defaults, input) : input;
}
