import { createHash } from "node:crypto";
import type { Lesson } from "../lessons/lesson.js";

/** A lesson's content id: the same lesson learnt twice is one entry. */
export function lessonId(lesson: Lesson): string {
  const content = [lesson.trigger, lesson.antiPattern, lesson.correctPattern, [...lesson.domains].sort().join(",")].join("\u0000");
  return createHash("sha256").update(content).digest("hex").slice(0, 12);
}
