import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { jsonSchemaConstraint } from "../../../../src/core/structured/json-schema-constraint.js";
import { jsonSchemaToGbnf } from "../../../../src/inference/grammar/json-schema-to-gbnf.js";
import type { AgentView } from "../../../../src/tournament/agents/tournament-agent.js";
import { llmActionSchema } from "../../../../src/tournament/agents/llm/llm-action-schema.js";
import { parseKernel } from "../../../../src/tournament/kernel/load-kernel.js";
import { parseAction } from "../../../../src/tournament/world/actions.js";
import { effectiveParams } from "../../../../src/tournament/world/effective-params.js";
import { TournamentWorld } from "../../../../src/tournament/world/tournament-world.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "constitutions/constitution-0.1.0.yaml");

function viewOnTurn(world: TournamentWorld): AgentView {
  const self = world.actorOnTurn as string;
  return { self, state: world.state, kernel, params: effectiveParams(kernel, world.state), events: world.events };
}

describe("the LLM citizen's action schema", () => {
  it("admits its own citizen's actions, votes only on open proposals, spends under the cap; parseAction reads every one", () => {
    const world = new TournamentWorld(kernel, { numCitizens: 4, seed: 1 });
    const proposer = world.actorOnTurn as string;
    world.step({ type: "ProposeSpend", actor: proposer, amount: 50, recipient: "c3", memo: "" });
    const view = viewOnTurn(world);
    const schema = llmActionSchema(view);
    const self = view.self;
    const other = ["c0", "c1", "c2", "c3"].find((citizen) => citizen !== self)!;
    const admitted = [
      { type: "Vote", actor: self, proposalId: "p0", support: true },
      { type: "ProposeSpend", actor: self, amount: 100, recipient: other },
      { type: "ProposeSpend", actor: self, amount: 25, recipient: self },
      { type: "ProposeAmendment", actor: self, changes: { quorumPercent: 40 } },
      { type: "ProposeAmendment", actor: self, changes: { votingWindowRounds: 1 } },
      { type: "DeclareEmergency", actor: self },
      { type: "EndEmergency", actor: self },
      { type: "Exit", actor: self },
      { type: "Pass", actor: self },
    ];
    for (const action of admitted) {
      expect(schema.safeParse(action).success, JSON.stringify(action)).toBe(true);
      expect(parseAction(action, "action").actor).toBe(self);
    }
    const refused = [
      { type: "Pass", actor: other },
      { type: "Vote", actor: self, proposalId: "p1", support: true },
      { type: "ProposeSpend", actor: self, amount: 101, recipient: other },
      { type: "ProposeSpend", actor: self, amount: 60, recipient: other },
      { type: "ProposeAmendment", actor: self, changes: { emergencyCooldownRounds: 0 } },
      { type: "ProposeAmendment", actor: self, changes: { quorumPercent: 45 } },
      { type: "ProposeAmendment", actor: self, changes: { quorumPercent: 40, votingWindowRounds: 1 } },
      { type: "Pass", actor: self, memo: "" },
    ];
    for (const action of refused) expect(schema.safeParse(action).success, JSON.stringify(action)).toBe(false);
  });

  it("leaves out Vote when nothing is open, and compiles to a grammar", () => {
    const world = new TournamentWorld(kernel, { numCitizens: 5, seed: 2 });
    const view = viewOnTurn(world);
    const schema = llmActionSchema(view);
    expect(schema.safeParse({ type: "Vote", actor: view.self, proposalId: "p0", support: true }).success).toBe(false);
    const constraint = jsonSchemaConstraint(schema);
    expect(constraint.kind).toBe("json-schema");
    const gbnf = jsonSchemaToGbnf((constraint as { schema: Parameters<typeof jsonSchemaToGbnf>[0] }).schema);
    expect(gbnf).toMatch(/^root ::= /);
    expect(gbnf).toContain(JSON.stringify(`"${view.self}"`).slice(1, -1));
  });
});
