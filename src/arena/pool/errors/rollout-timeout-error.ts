import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A rollout ran past the pool's `taskTimeoutMs` (time in model calls not
 * counted) on its first try and on its retry; its worker was replaced each time.
 */
export class RolloutTimeoutError extends SelfplayError {
  override readonly name = "RolloutTimeoutError";
  constructor(readonly rolloutId: string, readonly episodeType: string, readonly timeoutMs: number) {
    super(
      `rollout ${rolloutId} (episode "${episodeType}") ran past pool.taskTimeoutMs (${timeoutMs} ms, model calls not counted) ` +
        "on the first try and on the retry; find the loop that never yields, or raise pool.taskTimeoutMs",
    );
  }
}
