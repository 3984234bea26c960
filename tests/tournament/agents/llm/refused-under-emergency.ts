import type { AgentView } from "../../../../src/tournament/agents/tournament-agent.js";
import type { Kernel } from "../../../../src/tournament/kernel/kernel.js";
import { effectiveParams } from "../../../../src/tournament/world/effective-params.js";
import { TournamentWorld } from "../../../../src/tournament/world/tournament-world.js";

/** The view `refusedUnderEmergency` makes, and who acted before it. */
export interface RefusedUnderEmergency {
  view: AgentView;
  /** Who proposed the open spend, p0. */
  proposer: string;
  /** Who declared the emergency in force. */
  declarer: string;
}

/**
 * The third citizen on turn of a 5-citizen commons (seed 2), round 1 of its prompts: a spend of 50 to c3 open (p0), an
 * emergency another citizen declared in force, and the citizen's own EndEmergency just refused under Art. 6.
 */
export function refusedUnderEmergency(kernel: Kernel): RefusedUnderEmergency {
  const world = new TournamentWorld(kernel, { numCitizens: 5, seed: 2 });
  const proposer = world.actorOnTurn as string;
  world.step({ type: "ProposeSpend", actor: proposer, amount: 50, recipient: "c3", memo: "" });
  const declarer = world.actorOnTurn as string;
  world.step({ type: "DeclareEmergency", actor: declarer, reason: "" });
  const self = world.actorOnTurn as string;
  const lastRejection = { action: { type: "EndEmergency" as const, actor: self }, reason: "only the declarer may end an emergency", article: "Art. 6" };
  return { view: { self, state: world.state, kernel, params: effectiveParams(kernel, world.state), events: world.events, lastRejection }, proposer, declarer };
}
