import type { JsonObject, JsonValue } from "../json.js";
import type { Messages } from "../schemas/message.js";
import type { ModelResponse } from "../schemas/model-response.js";
import { Episode } from "./episode.js";
import type { CallModelOptions, EpisodeContext } from "./episode-context.js";

export interface SingleTurnState {
  response: ModelResponse;
}

/** One prompt, one completion by one role. */
export abstract class SingleTurnEpisode<Artifact extends JsonValue = JsonValue> extends Episode<
  Artifact,
  SingleTurnState
> {
  /** The role that answers. */
  protected abstract readonly roleId: string;
  protected abstract prompt(artifact: Artifact): Messages;

  /** Per-call options such as a JSON constraint; none by default. */
  protected callOptions(_artifact: Artifact): CallModelOptions {
    return {};
  }

  async rollout(context: EpisodeContext, artifact: Artifact): Promise<SingleTurnState> {
    return { response: await context.callModel(this.roleId, this.prompt(artifact), this.callOptions(artifact)) };
  }

  /** Default: the completion as `answer`. */
  finalize(state: SingleTurnState, _artifact: Artifact): JsonObject {
    return { answer: state.response.text };
  }
}
