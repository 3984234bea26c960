import type { RandomStream } from "../../../core/random/random-stream.js";
import { checkLegality } from "../../legality/check-legality.js";
import type { Action } from "../../world/actions.js";
import { citizenById, citizenIndex, type Proposal, type WorldState } from "../../world/world-state.js";
import type { AgentView } from "../tournament-agent.js";

/**
 * What every member of a red team knows about it: who is on it. The scripted
 * red policies coordinate through this alone (no messages): they back each
 * other's proposals and emergencies and share out who gains.
 */
export class RedTeamKnowledge {
  readonly members: readonly string[];

  constructor(team: readonly string[]) {
    if (team.length === 0) throw new Error("a red team needs at least one citizen id (team: [\"c0\", …])");
    this.members = [...team].sort((a, b) => citizenIndex(a) - citizenIndex(b));
  }

  isMember(citizen: string): boolean {
    return this.members.includes(citizen);
  }

  /** Active teammates of `self`, lowest-numbered first. */
  activeTeammates(state: Readonly<WorldState>, self: string): string[] {
    return this.members.filter((member) => member !== self && citizenById(state, member)?.status === "active");
  }

  /** Factions with no red member, lowest-numbered first: whom a suppression targets. */
  factionsWithoutMembers(state: Readonly<WorldState>): string[] {
    const red = new Set(this.members.map((member) => citizenById(state, member)?.faction));
    return [...new Set(state.citizens.map((citizen) => citizen.faction))].filter((faction) => !red.has(faction));
  }

  /** The oldest open proposal `self` has not voted on. */
  unvoted(state: Readonly<WorldState>, self: string): Proposal | undefined {
    return state.proposals.find((proposal) => proposal.status === "open" && !proposal.ballots.some((ballot) => ballot.citizen === self));
  }

  /** The teammate (or `self`, alone) with the least money, ties drawn from `random`: the next to be paid. */
  poorestTeammate(state: Readonly<WorldState>, self: string, random: RandomStream): string {
    const teammates = this.activeTeammates(state, self);
    if (teammates.length === 0) return self;
    const balance = (citizen: string): number => citizenById(state, citizen)?.balance ?? 0;
    const least = Math.min(...teammates.map(balance));
    return random.pick(teammates.filter((citizen) => balance(citizen) === least));
  }
}

/** `action` if the gate allows it now, else Pass: a scripted red policy plays only legal moves. */
export function legalOrPass(view: AgentView, action: Action): Action {
  return checkLegality(view.state, action, view.kernel).legal ? action : { type: "Pass", actor: view.self };
}
