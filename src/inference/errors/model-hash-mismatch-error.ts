import { SelfplayError } from "../../core/errors/index.js";

/** A downloaded or cached file's sha256 is not the one pinned for it: a different, altered or damaged file, never used. */
export class ModelHashMismatchError extends SelfplayError {
  override readonly name = "ModelHashMismatchError";
  constructor(
    readonly path: string,
    readonly expectedSha256: string,
    readonly actualSha256: string,
    /** What to do, e.g. "move it away and fetch again". */
    readonly fix: string,
  ) {
    super(`${path}: sha256 ${actualSha256}, expected ${expectedSha256} (the pinned file): ${fix}`);
  }
}
