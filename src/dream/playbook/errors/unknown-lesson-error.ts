import { SelfplayError } from "../../../core/errors/index.js";

/** Usage was recorded for a lesson id the playbook has never held. */
export class UnknownLessonError extends SelfplayError {
  override readonly name = "UnknownLessonError";
  constructor(readonly lessonId: string) {
    super(`lesson "${lessonId}" is not in the playbook (live or retired); pass the ids of the entries whose lessons were in the prompt`);
  }
}
