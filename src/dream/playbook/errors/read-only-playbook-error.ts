import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A write through the solver's read-only view of the playbook. The solver
 * learns only through the cycle's gates; a write from inside a solve would let
 * a lesson skip the generalization guard and verify-helpful.
 */
export class ReadOnlyPlaybookError extends SelfplayError {
  override readonly name = "ReadOnlyPlaybookError";
  constructor(readonly operation: string) {
    super(`playbook.${operation}: this is the solver's read-only view; lessons join through the cycle's gates (Playbook.admit), not from a solve`);
  }
}
