import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { CreditAssignment } from "../../../src/arena/credit-assignment.js";
import { GrpoAdvantage } from "../../../src/core/credit/grpo-advantage.js";
import { createTicTacToeEnvironment } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-environment.js";
import { TicTacToeEpisode } from "../../../src/tasks/tic-tac-toe/tic-tac-toe-episode.js";
import { lowestCell, player, randomCell, scriptedPlayers } from "./scripted-players.js";

/** A step of the environment on an arena with the default credit (RoleAwareCredit: GRPO within groups, a per-role EMA for singletons). */
async function step(prompts: number, groupSize: number) {
  const environment = createTicTacToeEnvironment({ prompts, groupSize });
  // X plays the lowest cell, O at random: X wins far more often, so a baseline shared by the seats would not centre either.
  const arena = new Arena({ client: scriptedPlayers(player("X", lowestCell), player("O", randomCell)), seed: 21 });
  arena.register(new TicTacToeEpisode(), environment.stores["tic-tac-toe"]);
  const results = await arena.generateRollouts(arena.getBatch(environment.plan));
  return { results, assignments: arena.assignCredit(results) };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe("credit per seat in tic-tac-toe (SPIRAL's role-conditioned advantage)", () => {
  it("centres X's advantages and O's each on their own seat within every group of games from one opening", async () => {
    const { results, assignments } = await step(6, 8);
    expect(results).toHaveLength(48);
    // Every game of a group started from the group's opening.
    const openings = new Map<string, string>();
    for (const result of results) {
      const opening = JSON.stringify(result.rollout.artifact);
      expect(openings.get(result.rollout.groupId) ?? opening).toBe(opening);
      openings.set(result.rollout.groupId, opening);
    }
    expect(openings.size).toBe(6);
    const xRewards = assignments.filter((assignment) => assignment.roleId === "x").map((assignment) => assignment.reward);
    expect(sum(xRewards)).toBeGreaterThan(0);
    let informative = 0;
    for (const groupId of openings.keys()) {
      for (const seat of ["x", "o"]) {
        const members = assignments.filter((assignment) => assignment.groupId === groupId && assignment.roleId === seat);
        expect(members).toHaveLength(8);
        expect(Math.abs(sum(members.map((member) => member.advantage)))).toBeLessThan(1e-9);
        const rewards = members.map((member) => member.reward);
        if (new Set(rewards).size > 1) {
          informative++;
          // Ranked as the rewards are: a seat's better games get the larger advantages.
          const best = members.reduce((a, b) => (b.reward > a.reward ? b : a));
          expect(best.advantage).toBeGreaterThan(0);
        }
      }
    }
    expect(informative).toBeGreaterThan(0);
    // What a baseline shared by the seats would give instead: X's advantages in some group would not centre.
    const pooled = new GrpoAdvantage().assign(assignments.map((assignment) => ({ ...assignment, roleId: "player" })));
    const pooledSums = [...openings.keys()].map((groupId) => sum(assignments.flatMap((assignment, index) => (assignment.groupId === groupId && assignment.roleId === "x" ? [pooled[index]!] : []))));
    expect(pooledSums.some((total) => Math.abs(total) > 1e-3)).toBe(true);
    // Zero-sum rewards and per-seat groups: in each game O's advantage is X's, negated.
    for (const result of results) {
      const [x, o] = ["x", "o"].map((seat) => assignments.find((assignment) => assignment.rolloutId === result.rollout.id && assignment.roleId === seat) as CreditAssignment);
      expect(x!.advantage + o!.advantage).toBeCloseTo(0, 9);
    }
  });

  it("with groups of one, compares each seat with its own running baseline", async () => {
    const { assignments } = await step(24, 1);
    for (const seat of ["x", "o"]) {
      const members = assignments.filter((assignment) => assignment.roleId === seat);
      expect(members).toHaveLength(24);
      // The first batch's baseline is the seat's own mean reward.
      const mean = sum(members.map((member) => member.reward)) / members.length;
      for (const member of members) expect(member.advantage).toBeCloseTo(member.reward - mean, 12);
    }
    // X wins more than O: one baseline for both seats would centre neither.
    const mean = (seat: string) => sum(assignments.filter((assignment) => assignment.roleId === seat).map((assignment) => assignment.reward)) / 24;
    expect(mean("x")).toBeGreaterThan(0);
  });
});
