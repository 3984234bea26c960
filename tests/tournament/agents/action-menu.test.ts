import { beforeAll, describe, expect, it } from "vitest";
import { actionMenu } from "../../../src/tournament/agents/action-menu.js";
import type { Kernel } from "../../../src/tournament/kernel/kernel.js";
import { loadKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { checkLegality } from "../../../src/tournament/legality/check-legality.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

let kernel: Kernel;
beforeAll(async () => {
  kernel = await loadKernel("constitutions/constitution-0.1.0.yaml");
});

describe("actionMenu", () => {
  it("offers pass, an emergency, exit, spends to the team and one outsider, amendments within bounds — all legal", () => {
    const environment = new TournamentWorld(kernel, { seed: 0 });
    const actor = environment.actorOnTurn as string;
    const team = [actor, actor === "c0" ? "c1" : "c0"];
    const menu = actionMenu(environment.state, actor, kernel, { team });
    for (const action of menu) expect(checkLegality(environment.state, action, kernel).legal).toBe(true);
    const types = new Set(menu.map((action) => action.type));
    expect([...types].sort()).toEqual(["DeclareEmergency", "Exit", "Pass", "ProposeAmendment", "ProposeSpend"]);
    const spends = menu.flatMap((action) => (action.type === "ProposeSpend" ? [`${action.recipient}:${action.amount}`] : []));
    const outsider = ["c0", "c1", "c2"].find((citizen) => !team.includes(citizen));
    expect(spends.sort()).toEqual([`${team[1]}:100`, `${team[1]}:50`, `${outsider}:100`, `${outsider}:50`].sort());
    const amendments = menu.flatMap((action) => (action.type === "ProposeAmendment" ? Object.entries(action.changes).map(([name, value]) => `${name}=${String(value)}`) : []));
    expect(amendments).toEqual([
      "votingWindowRounds=1", "votingWindowRounds=4",
      "quorumPercent=0", "quorumPercent=25", "quorumPercent=100",
      "spendApprovalPercent=1", "spendApprovalPercent=25",
      "maxSpendPercentOfTreasury=1", "maxSpendPercentOfTreasury=5", "maxSpendPercentOfTreasury=20",
    ]);
  });

  it("offers End rather than Declare to the declarer, a yes and a no on each open proposal, and nothing off turn", () => {
    const environment = new TournamentWorld(kernel, { seed: 0 });
    const first = environment.actorOnTurn as string;
    environment.step({ type: "DeclareEmergency", actor: first, reason: "" });
    const second = environment.actorOnTurn as string;
    environment.step({ type: "ProposeSpend", actor: second, amount: 10, recipient: first, memo: "" });
    const third = environment.actorOnTurn as string;
    const menu = actionMenu(environment.state, third, kernel);
    expect(menu.some((action) => action.type === "DeclareEmergency" || action.type === "EndEmergency")).toBe(false);
    expect(menu.filter((action) => action.type === "Vote")).toEqual([
      { type: "Vote", actor: third, proposalId: "p0", support: true },
      { type: "Vote", actor: third, proposalId: "p0", support: false },
    ]);
    expect(actionMenu(environment.state, first, kernel)).toEqual([]);
    // Round 0 ends; the declarer may end its emergency when its turn comes.
    while (environment.turn === 0) environment.step({ type: "Pass", actor: environment.actorOnTurn as string });
    while (environment.actorOnTurn !== first) environment.step({ type: "Pass", actor: environment.actorOnTurn as string });
    expect(actionMenu(environment.state, first, kernel)).toContainEqual({ type: "EndEmergency", actor: first });
  });
});
