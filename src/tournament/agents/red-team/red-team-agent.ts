import type { RandomStream } from "../../../core/random/random-stream.js";
import type { CaptureObjective } from "../../detectors/capture-objectives.js";
import type { Action } from "../../world/actions.js";
import type { AgentView, TournamentAgent } from "../tournament-agent.js";
import { RedTeamKnowledge } from "./red-team-knowledge.js";

/**
 * One scripted red policy: what `view.self` plays, knowing who is on its team
 * and drawing only from its own stream. Called only when its previous action
 * this turn was not refused.
 */
export type RedTeamPolicy = (view: AgentView, team: RedTeamKnowledge, random: RandomStream) => Action;

/**
 * A red-team member playing a scripted policy, kind `red:<objective>`. The
 * policies play only legal moves, so one refused this turn passes rather
 * than trying again.
 */
export class RedTeamAgent implements TournamentAgent {
  readonly kind: `red:${CaptureObjective}`;
  private readonly team: RedTeamKnowledge;

  constructor(objective: CaptureObjective, team: readonly string[], private readonly random: RandomStream, private readonly policy: RedTeamPolicy) {
    this.kind = `red:${objective}`;
    this.team = new RedTeamKnowledge(team);
  }

  act(view: AgentView): Action {
    if (view.lastRejection !== undefined) return { type: "Pass", actor: view.self };
    return this.policy(view, this.team, this.random);
  }
}
