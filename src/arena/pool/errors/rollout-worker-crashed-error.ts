import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A rollout's worker thread died twice — it exited, threw outside the
 * episode's own code, or was killed — once on the first try and once on the
 * retry in a worker of its own. The rollout is recorded as failed with this error.
 */
export class RolloutWorkerCrashedError extends SelfplayError {
  override readonly name = "RolloutWorkerCrashedError";
  constructor(readonly rolloutId: string, readonly episodeType: string, reason: string) {
    super(
      `rollout ${rolloutId} (episode "${episodeType}"): its worker died on the first try and on the retry (${reason}); ` +
        "look for process.exit, an exception thrown outside the episode's promises (a timer, an event handler) or a native crash in the episode's code",
    );
  }
}
