import type { TournamentAgent, AgentView } from "../agents/tournament-agent.js";
import type { CaptureObjective } from "../detectors/capture-objectives.js";
import type { Action } from "../world/actions.js";

/**
 * One red citizen of a search red team in a tournament: it plays, in order,
 * the actions the search chose for it (kind `search:<objective>`), then
 * passes. Against the same honest agents in the same world it reproduces the
 * searched transcript exactly; if the gate ever refuses one of its moves
 * (another world, other honest options) it passes instead.
 */
export class SearchRedTeamAgent implements TournamentAgent {
  readonly kind: `search:${CaptureObjective}`;
  private next = 0;

  constructor(objective: CaptureObjective, private readonly script: readonly Action[]) {
    this.kind = `search:${objective}`;
  }

  act(view: AgentView): Action {
    if (view.lastRejection !== undefined || this.next >= this.script.length) return { type: "Pass", actor: view.self };
    const action = this.script[this.next] as Action;
    this.next += 1;
    if (action.actor !== view.self) throw new Error(`the search red team's script for ${action.actor} was handed to ${view.self}; build the agents with plan.agents()`);
    return action;
  }
}
