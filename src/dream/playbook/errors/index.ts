export { LessonNotAdmittedError } from "./lesson-not-admitted-error.js";
export { ReadOnlyPlaybookError } from "./read-only-playbook-error.js";
export { UnknownLessonError } from "./unknown-lesson-error.js";
