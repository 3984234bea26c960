import type { AgentView, TournamentAgent } from "../../../src/tournament/agents/tournament-agent.js";
import type { Action } from "../../../src/tournament/world/actions.js";

/**
 * A test double, not a red-team policy: it plays the known hole of 0.1.0 on
 * purpose. With no emergency in force it declares one; holding one, it ends
 * it whenever a teammate acts after it this round, so the teammate can
 * declare the next before the round closes.
 */
export class ChainingRedAgent implements TournamentAgent {
  readonly kind = "red:test-chain";
  constructor(private readonly team: readonly string[]) {}

  act({ self, state, lastRejection }: AgentView): Action {
    if (lastRejection !== undefined) return { type: "Pass", actor: self };
    if (state.emergency === null) return { type: "DeclareEmergency", actor: self, reason: "test" };
    const later = state.turnOrder.slice(state.turnIndex + 1);
    if (state.emergency.declaredBy === self && this.team.some((mate) => mate !== self && later.includes(mate))) return { type: "EndEmergency", actor: self };
    return { type: "Pass", actor: self };
  }
}
