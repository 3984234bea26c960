import { SelfplayError } from "../../core/errors/index.js";

/**
 * A setup left more fixtures than a snapshot may hold (it is read whole into
 * memory and rewritten for every later program). The challenge is rejected
 * at its setup; a template or generator that needs more must write less.
 */
export class FixtureSnapshotTooLargeError extends SelfplayError {
  override readonly name = "FixtureSnapshotTooLargeError";
  constructor(
    /** Which limit was passed. */
    readonly limit: "bytes" | "files",
    /** Its value. */
    readonly maximum: number,
  ) {
    super(`the setup's fixtures pass the snapshot's limit of ${maximum} ${limit === "bytes" ? "bytes" : "files"}; a setup must write at most that much (FIXTURE_SNAPSHOT_LIMITS)`);
  }
}
