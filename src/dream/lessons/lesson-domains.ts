import { z } from "zod";

/**
 * The lesson taxonomy: the seed's domains in JavaScript terms (its `sql` and
 * `bash` have no JavaScript challenge cluster, so they are left out; promise
 * concurrency, JSON reshaping and plain text work stand in). A lesson names a
 * non-empty subset, and the playbook shows it only to clusters of those domains.
 */
export const LESSON_DOMAINS = [
  "data-analysis",
  "regex-parse",
  "algorithms",
  "concurrency",
  "json-transform",
  "text-processing",
  "node-general",
] as const;

export const LessonDomainSchema = z.enum(LESSON_DOMAINS);
export type LessonDomain = z.infer<typeof LessonDomainSchema>;

/** Whether `value` is one of LESSON_DOMAINS. */
export function isLessonDomain(value: string): value is LessonDomain {
  return (LESSON_DOMAINS as readonly string[]).includes(value);
}
