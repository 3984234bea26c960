import type { JsonObject } from "../json.js";

/** Serialisable form of an error, as recorded in rollouts and metrics. */
export interface ErrorRecord {
  name: string;
  message: string;
  /** A SelfplayError's `details`, when it has any. */
  details?: JsonObject;
}

/** What a caught value is recorded as; a thrown non-Error keeps its text under the name `NonErrorThrown`. */
export function toErrorRecord(error: unknown): ErrorRecord {
  if (error instanceof Error) {
    // Read by shape, not `instanceof SelfplayError`: an error thrown by another copy of selfplay (a user's installed
    // package beside the CLI's, a worker's module graph) is a SelfplayError of another class object.
    const details = jsonObjectOrUndefined((error as { details?: unknown }).details);
    return { name: error.name, message: error.message, ...(details && { details }) };
  }
  return { name: "NonErrorThrown", message: String(error) };
}

/** `value` as plain JSON when it is an object that survives JSON (a user's error may hang anything on `details`). */
function jsonObjectOrUndefined(value: unknown): JsonObject | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as JsonObject;
  } catch {
    return undefined;
  }
}
