import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { episodeMetrics } from "../../../src/tournament/metrics/episode-metrics.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const loadShipped = (version: string) => parseKernel(readFileSync(`constitutions/constitution-${version}.yaml`, "utf8"), version);

/** Plays one action for whoever is on turn: `choose(actor, round)` returns the action, or Pass. */
function playRound(environment: TournamentWorld, choose: (actor: string) => unknown): void {
  const round = environment.turn;
  while (environment.turn === round && environment.actorOnTurn !== null) {
    const actor = environment.actorOnTurn;
    expect(environment.step(choose(actor) ?? { type: "Pass", actor }).legal).toBe(true);
  }
}

describe("participation (Art. 5: a ballot stays counted after its citizen exits)", () => {
  it("is written in Art. 5 from 0.3.0 on", () => {
    const article = loadShipped("0.3.0").articles.find((entry) => entry.id === "Art. 5");
    expect(article?.text).toContain("A ballot stays cast when its citizen exits before the close");
    expect(article?.text).toContain("quorumPercent of the citizens active at the close");
  });

  it.each(["0.1.0", "0.3.0"])("under %s: stays within 0–1000 when voters exit before the tally, and counts their ballots over the citizens who could cast them", (version) => {
    const kernel = loadShipped(version);
    const environment = new TournamentWorld(kernel, { seed: 3 });
    const proposer = environment.actorOnTurn as string;
    const stayer = environment.citizens().find((citizen) => citizen !== proposer) as string;
    // Round 0: the first citizen on turn proposes, every other citizen votes yes.
    playRound(environment, (actor) => (actor === proposer ? { type: "ProposeSpend", actor, amount: 10, recipient: proposer } : { type: "Vote", actor, proposalId: "p0", support: true }));
    // Round 1: five of the six voters exit before the window closes; the tally runs at the round's end.
    playRound(environment, (actor) => (actor === proposer || actor === stayer ? undefined : { type: "Exit", actor }));
    const decided = environment.events.find((event) => event.type === "proposal_decided");
    expect(decided).toMatchObject({ type: "proposal_decided", proposalId: "p0", yes: 6, no: 0, active: 2, outcome: "passed" });
    const metrics = episodeMetrics(environment.state, environment.events, { redTeam: [] });
    // 6 ballots counted; 2 active citizens + 5 exited voters could have cast one: floor(1000 × 6 / 7).
    expect(metrics.participationPermille).toBe(857);
  });
});
