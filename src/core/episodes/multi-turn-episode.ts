import { InvalidInputError } from "../errors/index.js";
import type { JsonValue } from "../json.js";
import type { Messages } from "../schemas/message.js";
import { Episode } from "./episode.js";
import type { EpisodeContext } from "./episode-context.js";

export interface MultiTurnState {
  /** The conversation as the role saw it, its own turns included. */
  messages: Messages;
  turns: number;
  /** True when the environment ended the episode, false when the turn limit did. */
  finished: boolean;
}

/** What the environment says after each of the role's turns. */
export interface EnvironmentReply {
  /** Shown to the role as the next user message; ignored when `done`. */
  content: string;
  done: boolean;
}

/** A chat loop between one role and an environment, with a turn limit. */
export abstract class MultiTurnEpisode<Artifact extends JsonValue = JsonValue> extends Episode<
  Artifact,
  MultiTurnState
> {
  protected abstract readonly roleId: string;
  /** Maximum number of the role's turns. */
  protected abstract readonly maxTurns: number;
  protected abstract initialMessages(artifact: Artifact): Messages;
  protected abstract environmentReply(
    state: MultiTurnState,
    artifact: Artifact,
    context: EpisodeContext,
  ): Promise<EnvironmentReply>;

  async rollout(context: EpisodeContext, artifact: Artifact): Promise<MultiTurnState> {
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1) {
      throw new InvalidInputError(`maxTurns (episode "${this.type}")`, "an integer ≥ 1", this.maxTurns);
    }
    const state: MultiTurnState = { messages: [...this.initialMessages(artifact)], turns: 0, finished: false };
    while (state.turns < this.maxTurns) {
      const response = await context.callModel(this.roleId, state.messages);
      state.messages.push({ role: "assistant", content: response.text });
      state.turns++;
      const reply = await this.environmentReply(state, artifact, context);
      if (reply.done) {
        state.finished = true;
        break;
      }
      state.messages.push({ role: "user", content: reply.content });
    }
    return state;
  }
}
