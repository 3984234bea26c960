import { describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { opponentResults } from "../../../src/training/loop/opponent-results.js";

/** A game: the Steps' (role, version) in order, its rewards by role, its status. */
const game = (steps: [string, number][], rewards: Record<string, number>, status = "scored") =>
  ({ outcome: { status }, rewards, rollout: { steps: steps.map(([roleId, policyVersion]) => ({ roleId, policyVersion })) } }) as unknown as GenerateResult;

describe("opponentResults", () => {
  it("groups the trained seats' results by the version that played the frozen role, skipping unscored games and games without it", () => {
    const results = [
      game([["x", 3], ["opponent", 0], ["x", 3]], { x: 1, opponent: -1 }),
      game([["opponent", 0], ["o", 3]], { o: -1, opponent: 1 }),
      game([["opponent", 10], ["o", 3]], { o: 0, opponent: 0 }),
      game([["x", 3], ["opponent", 2]], { x: 1, opponent: -1 }),
      game([["x", 3], ["opponent", 2]], { x: 1, opponent: -1 }, "failed"),
      game([["x", 3], ["o", 3]], { x: 1, o: -1 }),
    ];
    expect(opponentResults(results, new Set(["opponent"]))).toEqual({
      v0: { games: 2, meanReward: 0, winShare: 0.5 },
      v2: { games: 1, meanReward: 1, winShare: 1 },
      v10: { games: 1, meanReward: 0, winShare: 0 },
    });
    expect(Object.keys(opponentResults(results, new Set(["opponent"])))).toEqual(["v0", "v2", "v10"]);
  });
});
