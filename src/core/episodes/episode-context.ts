import type { RandomStream } from "../random/random-stream.js";
import type { Constraint } from "../schemas/constraint.js";
import type { EpisodeRequest } from "../schemas/episode-request.js";
import type { GenerateResult } from "../schemas/generate-result.js";
import type { Messages } from "../schemas/message.js";
import type { ModelResponse } from "../schemas/model-response.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";

export interface CallModelOptions {
  /** Per-call sampler changes on top of the role's (an escape strategy raising temperature, say). */
  sampler?: SamplerOverrides;
  /** Restrict the output to a JSON schema or a grammar. */
  constraint?: Constraint;
}

/**
 * What the arena gives an episode while it runs. Model calls made here are a
 * Role's and become Steps; sub-episodes run through the arena and become the
 * result's `children`.
 */
export interface EpisodeContext {
  /** The rollout's deterministic id, e.g. `ep7` or `ep7.2` for a sub-episode. */
  readonly rolloutId: string;
  readonly signal: AbortSignal | undefined;
  /** A seeded stream for this episode and purpose: same run seed ⇒ same numbers. */
  random(purpose: string): RandomStream;
  /** Calls the policy as `roleId`, prepending the role's system prompt, and records the Step. */
  callModel(roleId: string, messages: Messages, options?: CallModelOptions): Promise<ModelResponse>;
  /**
   * Runs sub-episodes through the arena, concurrently, and returns their results
   * in request order. Requests without a groupId share one group per episode type.
   */
  runSubEpisodes(requests: readonly EpisodeRequest[]): Promise<GenerateResult[]>;
}
