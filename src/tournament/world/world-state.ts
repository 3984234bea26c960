import type { PatchableParamName } from "../kernel/kernel-schema.js";

export interface CitizenState {
  id: string;
  /** Fixed at the start: `f0 … f(F−1)`, citizen i in faction i mod F. */
  faction: string;
  status: "active" | "exited";
  /** Whole units the citizen holds (received spends, an exit share). */
  balance: number;
  /** Round an exit was queued in, while it waits; null otherwise. */
  exitQueuedRound: number | null;
}

export interface Ballot {
  citizen: string;
  support: boolean;
}

interface ProposalBase {
  id: string;
  proposer: string;
  openedRound: number;
  /** Tallied at the end of this round. */
  closesAfterRound: number;
  /** In the order cast. */
  ballots: Ballot[];
  status: "open" | "passed" | "failed";
}
export type Proposal =
  | (ProposalBase & { kind: "spend"; amount: number; recipient: string; memo: string })
  | (ProposalBase & { kind: "amendment"; changes: Partial<Record<PatchableParamName, number | boolean>> });

export interface Emergency {
  declaredBy: string;
  startRound: number;
}

/**
 * Everything the world is: the legality gate reads it, only the environment
 * changes it. Arrays are kept in a fixed order (citizens by index, proposals
 * by id), so nothing depends on insertion order across runs.
 */
export interface WorldState {
  round: number;
  /** Active citizens in the order drawn for this round, and whose turn it is. */
  turnOrder: string[];
  turnIndex: number;
  treasury: number;
  citizens: CitizenState[];
  proposals: Proposal[];
  emergency: Emergency | null;
  /** Round the last emergency ended in (lapsed or ended early). */
  lastEmergencyEndRound: number | null;
  /** Parameters changed by passed amendments, over the kernel's. */
  paramOverrides: Partial<Record<PatchableParamName, number | boolean>>;
}

/** Numeric position of a citizen id (`c12` → 12), for ordering. */
export function citizenIndex(id: string): number {
  return Number(id.slice(1));
}

export function citizenById(state: WorldState, id: string): CitizenState | undefined {
  const citizen = state.citizens[citizenIndex(id)];
  return citizen?.id === id ? citizen : undefined;
}

export function activeCitizens(state: WorldState): CitizenState[] {
  return state.citizens.filter((citizen) => citizen.status === "active");
}

/** Units in the world: the treasury plus every balance (exited citizens keep theirs). Constant over a run. */
export function totalFunds(state: WorldState): number {
  return state.citizens.reduce((sum, citizen) => sum + citizen.balance, state.treasury);
}
