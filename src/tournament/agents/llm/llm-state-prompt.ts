import { citizenById, type Proposal } from "../../world/world-state.js";
import type { AgentView } from "../tournament-agent.js";

export interface LlmStatePromptOptions {
  /** Rounds the episode plays, shown as `r1/2`. */
  rounds: number;
  /** What the citizen plays for, shown as `goal:` (`fair`, `exit-blocking` …). */
  goal: string;
  /** Open proposals listed at most (the oldest it has not voted on first). Default 3. */
  maxProposals?: number;
}

/**
 * The state as one short line per fact, so that a model with a 256-token
 * context has room for the prompt and a whole action: who it is and its goal,
 * the round, the treasury and its balance, the open proposals it may vote on,
 * the emergency, and what the gate refused last. About 80–150 bytes.
 *
 * ```
 * c2 goal:fair r1/2
 * T1000 me0 act5
 * p0 spend 50>c3 by c1
 * E:c4 since r1
 * refused Vote: Art. 5
 * ```
 */
export function llmStatePrompt(view: AgentView, options: LlmStatePromptOptions): string {
  const { self, state } = view;
  const me = citizenById(state, self);
  const active = state.citizens.filter((citizen) => citizen.status === "active").length;
  const lines = [`${self} goal:${options.goal} r${state.round + 1}/${options.rounds}`, `T${state.treasury} me${me?.balance ?? 0} act${active}`];
  for (const proposal of unvotedProposals(view).slice(0, options.maxProposals ?? 3)) {
    const what = proposal.kind === "spend" ? `spend ${proposal.amount}>${proposal.recipient}` : `amend ${Object.entries(proposal.changes).map(([name, value]) => `${name}=${String(value)}`).join(",")}`;
    lines.push(`${proposal.id} ${what} by ${proposal.proposer}`);
  }
  if (state.emergency !== null) lines.push(`E:${state.emergency.declaredBy} since r${state.emergency.startRound + 1}`);
  if (view.lastRejection !== undefined) lines.push(`refused ${view.lastRejection.action.type}: ${view.lastRejection.article}`);
  return lines.join("\n");
}

/** The open proposals `view.self` has not voted on, oldest first: what both prompt forms list. */
export function unvotedProposals(view: AgentView): Proposal[] {
  return view.state.proposals.filter((proposal) => proposal.status === "open" && !proposal.ballots.some((ballot) => ballot.citizen === view.self));
}
