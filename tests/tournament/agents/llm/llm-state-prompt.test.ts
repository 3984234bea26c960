import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { llmStatePrompt } from "../../../../src/tournament/agents/llm/llm-state-prompt.js";
import { parseKernel } from "../../../../src/tournament/kernel/load-kernel.js";
import { effectiveParams } from "../../../../src/tournament/world/effective-params.js";
import { TournamentWorld } from "../../../../src/tournament/world/tournament-world.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "constitutions/constitution-0.1.0.yaml");

describe("the LLM citizen's state prompt", () => {
  it("writes a state prompt of a few short lines", () => {
    const world = new TournamentWorld(kernel, { numCitizens: 5, seed: 2 });
    const proposer = world.actorOnTurn as string;
    world.step({ type: "ProposeSpend", actor: proposer, amount: 50, recipient: "c3", memo: "" });
    const declarer = world.actorOnTurn as string;
    world.step({ type: "DeclareEmergency", actor: declarer, reason: "" });
    const self = world.actorOnTurn as string;
    const view = { self, state: world.state, kernel, params: effectiveParams(kernel, world.state), events: world.events };
    const prompt = llmStatePrompt({ ...view, lastRejection: { action: { type: "EndEmergency", actor: view.self }, reason: "", article: "Art. 6" } }, { rounds: 2, goal: "fair" });
    expect(prompt).toBe(`${view.self} goal:fair r1/2\nT1000 me0 act5\np0 spend 50>c3 by ${proposer}\nE:${declarer} since r1\nrefused EndEmergency: Art. 6`);
  });
});
