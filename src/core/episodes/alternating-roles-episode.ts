import { InvalidInputError } from "../errors/index.js";
import type { JsonValue } from "../json.js";
import type { Message, Messages } from "../schemas/message.js";
import { Episode } from "./episode.js";
import type { EpisodeContext } from "./episode-context.js";

export interface Turn {
  roleId: string;
  content: string;
}

export interface AlternatingRolesState {
  turns: Turn[];
}

/**
 * Roles speak in turn (the order of `turnOrder`, repeated) for up to `maxTurns`
 * turns. Each role sees the opening and the others' turns as user messages
 * (`other: text`) and its own turns as assistant messages.
 */
export abstract class AlternatingRolesEpisode<Artifact extends JsonValue = JsonValue> extends Episode<
  Artifact,
  AlternatingRolesState
> {
  /** Role ids in speaking order. */
  protected abstract readonly turnOrder: readonly string[];
  protected abstract readonly maxTurns: number;
  /** What every role sees first (the topic, the rules). */
  protected abstract openingPrompt(artifact: Artifact): string;

  /** Ends the episode early when true; checked after every turn. Default: never. */
  protected isFinished(_state: AlternatingRolesState, _artifact: Artifact): boolean {
    return false;
  }

  async rollout(context: EpisodeContext, artifact: Artifact): Promise<AlternatingRolesState> {
    if (this.turnOrder.length < 2) {
      throw new InvalidInputError(`turnOrder (episode "${this.type}")`, "at least two role ids", this.turnOrder);
    }
    const state: AlternatingRolesState = { turns: [] };
    const opening = this.openingPrompt(artifact);
    for (let turn = 0; turn < this.maxTurns; turn++) {
      const roleId = this.turnOrder[turn % this.turnOrder.length] as string;
      const response = await context.callModel(roleId, viewOf(roleId, opening, state.turns));
      state.turns.push({ roleId, content: response.text });
      if (this.isFinished(state, artifact)) break;
    }
    return state;
  }
}

/** The conversation as `roleId` sees it; consecutive messages of one side are merged, as chat templates expect. */
export function viewOf(roleId: string, opening: string, turns: readonly Turn[]): Messages {
  const messages: Message[] = [{ role: "user", content: opening }];
  for (const turn of turns) {
    const message: Message =
      turn.roleId === roleId
        ? { role: "assistant", content: turn.content }
        : { role: "user", content: `${turn.roleId}: ${turn.content}` };
    const previous = messages[messages.length - 1];
    if (previous && previous.role === message.role) previous.content += `\n\n${message.content}`;
    else messages.push(message);
  }
  return messages;
}
