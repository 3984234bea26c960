import { SelfplayError } from "../../../core/errors/index.js";

/** Playbook.admit was handed a lesson that has not passed both gates. */
export class LessonNotAdmittedError extends SelfplayError {
  override readonly name = "LessonNotAdmittedError";
  constructor(
    /** The gate it did not pass: `generalization-guard` or `verify-helpful`. */
    readonly gate: "generalization-guard" | "verify-helpful",
    /** The gate's reason, e.g. `pattern-copies-validator` or `not-better`. */
    readonly reason: string,
  ) {
    super(
      `lesson not admitted: ${gate} says ${reason}; only a lesson accepted by checkGeneralization and kept by verifyLessonHelpful joins the playbook`,
    );
  }
}
