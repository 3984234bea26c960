import type { GenerateResult } from "../../core/schemas/generate-result.js";

/** The trained seats' results against one opponent version over a step's games. */
export interface OpponentResult {
  games: number;
  /** Mean reward of the trained roles that played. */
  meanReward: number;
  /** Share of games whose trained roles' mean reward was above 0 (a win, in a zero-sum game). */
  winShare: number;
}

/**
 * The trained seats' results by the policy version that played the frozen
 * roles (`v<N>`, read from its Steps), over a step's scored top-level games:
 * the league's per-snapshot record, or a frozen opponent's (always `v0`).
 * The current policy, drawn in a league, plays as its own version.
 */
export function opponentResults(results: readonly GenerateResult[], frozenRoles: ReadonlySet<string>): Record<string, OpponentResult> {
  const byVersion = new Map<string, { games: number; reward: number; wins: number }>();
  for (const result of results) {
    if (result.outcome.status !== "scored") continue;
    const opponent = result.rollout.steps.find((step) => frozenRoles.has(step.roleId));
    const seats = [...new Set(result.rollout.steps.map((step) => step.roleId).filter((roleId) => !frozenRoles.has(roleId)))];
    if (!opponent || seats.length === 0) continue;
    const reward = seats.reduce((sum, roleId) => sum + (result.rewards[roleId] ?? 0), 0) / seats.length;
    const key = `v${opponent.policyVersion}`;
    const entry = byVersion.get(key) ?? { games: 0, reward: 0, wins: 0 };
    byVersion.set(key, { games: entry.games + 1, reward: entry.reward + reward, wins: entry.wins + (reward > 0 ? 1 : 0) });
  }
  const keys = [...byVersion.keys()].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return Object.fromEntries(keys.map((key) => {
    const { games, reward, wins } = byVersion.get(key)!;
    return [key, { games, meanReward: reward / games, winShare: wins / games }];
  }));
}
