import { z } from "zod";
import { LessonSchema } from "../lessons/lesson.js";

/** A live lesson and how it has done since it joined. */
export const PlaybookEntrySchema = z.strictObject({
  /** Content hash of the lesson (lessonId). */
  id: z.string().min(1),
  lesson: LessonSchema,
  /** When it joined, ISO 8601 (from the injected clock). */
  addedAt: z.string().min(1),
  /** Cycles that had it in the solver's prompt. */
  uses: z.number().int().nonnegative(),
  /** Of those, the cycles the caller judged it helped. */
  helped: z.number().int().nonnegative(),
});
export type PlaybookEntry = z.infer<typeof PlaybookEntrySchema>;

/** Why a lesson left the live set. */
export const RetirementReasonSchema = z.enum([
  /** Used at least retireAfterUses times with a help rate below minimumHelpRate. */
  "stopped-helping",
  /** The lowest usage score when a new lesson arrived at the cap. */
  "displaced-at-cap",
]);
export type RetirementReason = z.infer<typeof RetirementReasonSchema>;

/** A retired lesson: kept, never deleted, so what the playbook once taught stays auditable. */
export const RetiredPlaybookEntrySchema = PlaybookEntrySchema.extend({
  retiredAt: z.string().min(1),
  retiredReason: RetirementReasonSchema,
});
export type RetiredPlaybookEntry = z.infer<typeof RetiredPlaybookEntrySchema>;
