import { captureProgress, type DetectionContext } from "../detectors/detect-captures.js";
import type { TournamentEvent } from "../world/events.js";
import { totalFunds, type WorldState } from "../world/world-state.js";
import type { TournamentRole } from "./tournament-role.js";

/**
 * Worst-off first: the holdings of the poorest citizen — its balance plus,
 * while it stays, its pro-rata claim on the treasury (what an exit would pay
 * it now) — over the equal split of all funds. 1 when nobody holds less than
 * an equal share, lower as the poorest falls behind. Integer holdings; only
 * the ratio is a fraction.
 */
export function worstOffShare(state: Readonly<WorldState>): number {
  const active = state.citizens.filter((citizen) => citizen.status === "active").length;
  const claim = active === 0 ? 0 : Math.floor(state.treasury / active);
  const poorest = Math.min(...state.citizens.map((citizen) => citizen.balance + (citizen.status === "active" ? claim : 0)));
  const equalShare = Math.floor(totalFunds(state) / state.citizens.length);
  return equalShare === 0 ? 1 : poorest / equalShare;
}

/**
 * How far a red team got towards its objective, in [0, 1]: 1 once the
 * detector fires, else its progress over the detector's threshold (the red
 * team's pro-rata claim plus one unit for a treasury drain, two decisive
 * suppressions, one round beyond the emergency cap for an overstay or a
 * blocked exit).
 */
export function captureScore(objective: Extract<TournamentRole, { kind: "red" }>["objective"], events: readonly TournamentEvent[], context: DetectionContext): number {
  const { progress, finding } = captureProgress(objective, events, context);
  if (finding !== null) return 1;
  const threshold =
    objective === "treasury-drain"
      ? Math.floor((context.world.initialTreasury * context.redTeam.length) / context.world.numCitizens) + 1
      : objective === "faction-suppression"
        ? 2
        : context.kernel.params.emergencyMaxRounds + 1;
  return Math.min(1, progress / threshold);
}
