import type { LessonDomain } from "../lessons/lesson-domains.js";
import type { Lesson } from "../lessons/lesson.js";

/** The header the solver's prompt carries lessons under (the seed's production header). */
export const PLAYBOOK_HEADER = "### SKILL PLAYBOOK:";

/**
 * The playbook block for a cluster: the lessons sharing one of `domains`, in
 * the order given, under PLAYBOOK_HEADER; "" when none applies, so a prompt
 * without lessons carries no empty header.
 */
export function playbookPrompt(lessons: readonly Lesson[], domains: readonly LessonDomain[]): string {
  const wanted = new Set(domains);
  const relevant = lessons.filter((lesson) => lesson.domains.some((domain) => wanted.has(domain)));
  if (relevant.length === 0) return "";
  const items = relevant.map(
    (lesson) => `- When: ${lesson.trigger}\n  Avoid: ${lesson.antiPattern}\n  Instead: ${lesson.correctPattern}`,
  );
  return `${PLAYBOOK_HEADER}\n${items.join("\n")}\n`;
}
