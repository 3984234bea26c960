import type { z } from "zod";
import { InvalidInputError } from "../errors/index.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { Role } from "../schemas/role.js";
import type { Verifier } from "../verifiers/verifier.js";
import type { EpisodeContext } from "./episode-context.js";
import { parseInput } from "../parse-input.js";

/**
 * A rollout protocol. The arena drives its lifecycle:
 * `getArtifact` → `rollout` → `finalize` → `verifier.score`.
 * Episode objects hold configuration only; everything a run produces lives in
 * the state returned by `rollout`, so one instance serves many rollouts at once.
 */
export abstract class Episode<Artifact extends JsonValue = JsonValue, State = unknown> {
  /** Name requests use to ask for this episode, e.g. `debate`. */
  abstract readonly type: string;
  /** The Roles this episode calls; calling any other id is an error. */
  abstract readonly roles: readonly Role[];
  abstract readonly verifier: Verifier;
  /** Validates artifacts that come in requests or from the ArtifactStore. */
  protected abstract readonly artifactSchema: z.ZodType<Artifact>;

  /**
   * Prepares the artifact to run on. The default validates the requested one;
   * episodes that make their own (a proposer) override this.
   */
  async getArtifact(_context: EpisodeContext, requested: JsonValue | undefined): Promise<Artifact> {
    if (requested === undefined) {
      throw new InvalidInputError(
        `artifact (episode "${this.type}")`,
        "an artifact in the EpisodeRequest or an ArtifactStore registered for this episode",
      );
    }
    return this.parseArtifact(requested);
  }

  /**
   * The artifact as `artifactSchema` takes it, or an InvalidInputError naming
   * the field (`artifact.expected (episode "echo")`): requests' artifacts, and
   * every item of the episode's ArtifactStore when an environment loads.
   */
  parseArtifact(artifact: JsonValue): Artifact {
    return parseInput(this.artifactSchema, artifact, {
      fieldName: (path) => `artifact.${path.map(String).join(".")} (episode "${this.type}")`,
    });
  }

  /** Runs the protocol: model calls through `context.callModel`, sub-episodes through `context.runSubEpisodes`. */
  abstract rollout(context: EpisodeContext, artifact: Artifact): Promise<State>;

  /** Extracts the summary values the verifier scores (they are stored as `rollout.artifacts`). */
  abstract finalize(state: State, artifact: Artifact): JsonObject;
}
