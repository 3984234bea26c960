import { z } from "zod";
import type { JsonValue } from "../../core/json.js";
import { readJson } from "./read-json.js";

/** A submission that is JSON but no action, kept as what it was: its JSON, keys in code-unit order. */
export const MalformedSubmissionSchema = z.strictObject({
  malformed: z.custom<JsonValue>((value) => readJson(value).ok, "a JSON value"),
});
export type MalformedSubmission = z.infer<typeof MalformedSubmissionSchema>;

/**
 * A submission JSON cannot hold (NaN, a BigInt, a cycle, …; see readJson),
 * kept as what the world read of it: each such part's path and what it was,
 * in path order — all its refusal names, so a replay logs the same refusal.
 */
export const NotJsonSubmissionSchema = z.strictObject({
  notJson: z.array(z.strictObject({ field: z.string().min(1), got: z.string().min(1) })).min(1),
});
export type NotJsonSubmission = z.infer<typeof NotJsonSubmissionSchema>;

/** What the world refused as no action, as its transcript keeps it. */
export type RefusedSubmission = MalformedSubmission | NotJsonSubmission;
