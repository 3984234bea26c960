import { UnknownActionError } from "../errors/index.js";
import { parseAction, readAction, type Action, type ReadAction } from "./actions.js";
import { NOT_JSON_EXPECTED } from "./read-json.js";
import { MalformedSubmissionSchema, NotJsonSubmissionSchema, type MalformedSubmission, type RefusedSubmission } from "./refused-submission.js";

/** One entry of a transcript: an action (legal or refused by an article), or a submission that was no action. */
export type Submission = Action | RefusedSubmission;

/** Whether a transcript entry is an action (an action always has a `type`; the two refused forms never do). */
export function isAction(submission: Submission): submission is Action {
  return !("malformed" in submission) && !("notJson" in submission);
}

/** A transcript entry read back as `step` read it the first time: the same action, or the same refusal. */
export function readSubmission(submission: Submission): ReadAction {
  if ("notJson" in submission) {
    const parts = submission.notJson.map(({ field, got }) => ({ field, got }));
    return { ok: false, problems: parts.map((part) => ({ ...part, expected: NOT_JSON_EXPECTED, received: part.got })), submission: Object.freeze({ notJson: parts.map((part) => Object.freeze(part)) }) };
  }
  return readAction("malformed" in submission ? submission.malformed : submission);
}

/**
 * Validates one transcript entry from untrusted JSON; `field` names where it
 * came from. An action is parsed as an action (a typo in one is an
 * UnknownActionError, never quietly a malformed submission); `{"malformed": …}`
 * must hold something that is no action, and `{"notJson": […]}` the parts a
 * refusal named.
 */
export function parseSubmission(value: unknown, field: string): Submission {
  const keys = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  if (keys.includes("type") || !(keys.includes("malformed") || keys.includes("notJson"))) return parseAction(value, field);
  const schema = keys.includes("malformed") ? MalformedSubmissionSchema : NotJsonSubmissionSchema;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : (issue?.path ?? []);
    throw new UnknownActionError([field, ...path.map(String)].join("."), issue?.code === "unrecognized_keys" ? 'only "malformed" (a refused submission\'s JSON) or only "notJson" (its parts JSON cannot hold)' : (issue?.message ?? "a refused submission"));
  }
  const entry = result.data as Submission;
  const read = readSubmission(entry);
  if (read.ok) throw new UnknownActionError(`${field}.malformed`, "a submission that is no action (this one is: write it as the action itself)", (entry as MalformedSubmission).malformed);
  return read.submission;
}
