import { activeCitizens, type WorldState } from "../world/world-state.js";

/** One citizen's welfare at the end of an episode, in whole units. */
export interface CitizenWelfare {
  citizen: string;
  faction: string;
  status: "active" | "exited";
  /** Units the citizen holds: received spends and, if it left, its exit share. */
  balance: number;
  /** What it could still take out: floor(treasury / active citizens) if still active, 0 once it has left. */
  claim: number;
  /** balance + claim. */
  welfare: number;
}

/**
 * Each citizen's welfare: its balance plus, while it is still active, its
 * pro-rata claim on the treasury — the share Art. 7's exit rule would pay it
 * now (treasury divided by the active citizens, rounded down). An exited
 * citizen's claim is what it already took, so it counts its balance alone.
 * Integers throughout; citizens in index order.
 */
export function citizenWelfare(state: Readonly<WorldState>): CitizenWelfare[] {
  const active = activeCitizens(state).length;
  const claim = active === 0 ? 0 : Math.floor(state.treasury / active);
  return state.citizens.map((citizen) => {
    const ownClaim = citizen.status === "active" ? claim : 0;
    return { citizen: citizen.id, faction: citizen.faction, status: citizen.status, balance: citizen.balance, claim: ownClaim, welfare: citizen.balance + ownClaim };
  });
}
