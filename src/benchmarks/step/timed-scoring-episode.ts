import { z } from "zod";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { Episode } from "../../core/episodes/episode.js";
import type { JsonObject, JsonValue } from "../../core/json.js";
import type { Role } from "../../core/schemas/role.js";
import type { Verifier } from "../../core/verifiers/verifier.js";

/** Seconds spent inside verifiers, summed over every rollout scored. */
export interface ScoringTimer {
  seconds: number;
}

/**
 * An episode exactly like `inner` whose verifier's time is added to `timer`:
 * how a benchmark tells scoring apart from generation without touching the
 * arena or the training loop. Same type name, roles, protocol and rewards.
 * Timed until the verifier hands back its promise: all of a pure verifier's
 * work (the arithmetic ones), and never another rollout's work interleaved
 * while awaiting — but a verifier that awaits a judge counts only up to its first await.
 */
export class TimedScoringEpisode<Artifact extends JsonValue, State> extends Episode<Artifact, State> {
  readonly type: string;
  readonly roles: readonly Role[];
  readonly verifier: Verifier;
  // Never read: getArtifact is the wrapped episode's, which validates with its own schema.
  protected readonly artifactSchema = z.custom<Artifact>();

  constructor(
    private readonly inner: Episode<Artifact, State>,
    timer: ScoringTimer,
    /** Milliseconds of a monotonic clock; injected by tests. */
    now: () => number = () => performance.now(),
  ) {
    super();
    this.type = inner.type;
    this.roles = inner.roles;
    this.verifier = {
      score: (rollout, context) => {
        const started = now();
        try {
          return inner.verifier.score(rollout, context);
        } finally {
          timer.seconds += (now() - started) / 1000;
        }
      },
    };
  }

  override getArtifact(context: EpisodeContext, requested: JsonValue | undefined): Promise<Artifact> {
    return this.inner.getArtifact(context, requested);
  }

  rollout(context: EpisodeContext, artifact: Artifact): Promise<State> {
    return this.inner.rollout(context, artifact);
  }

  finalize(state: State, artifact: Artifact): JsonObject {
    return this.inner.finalize(state, artifact);
  }
}
