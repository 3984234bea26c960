import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { llmChatMessages } from "../../../../src/tournament/agents/llm/llm-chat-messages.js";
import { parseKernel } from "../../../../src/tournament/kernel/load-kernel.js";
import { effectiveParams } from "../../../../src/tournament/world/effective-params.js";
import { TournamentWorld } from "../../../../src/tournament/world/tournament-world.js";
import { refusedUnderEmergency } from "./refused-under-emergency.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "constitutions/constitution-0.1.0.yaml");

const ACTIONS = [
  "Each turn you take one action, written as a JSON object:",
  "- Vote: for (support true) or against an open proposal.",
  "- ProposeSpend: pay an amount from the treasury to a citizen, at most 10% of it, if the vote passes.",
  "- ProposeAmendment: change a rule (votingWindowRounds, quorumPercent, spendApprovalPercent, maxSpendPercentOfTreasury), if the vote passes.",
  "- DeclareEmergency, EndEmergency: start or end emergency rule.",
  "- Exit: leave with your share of the treasury.",
  "- Pass: do nothing this turn.",
  "An action the constitution forbids is refused, and you choose again.",
].join("\n");

describe("the LLM citizen's chat messages", () => {
  it("puts who it is, its goal and the actions in a system message, and the compact prompt's facts in words, the refusal's reason included", () => {
    const { view, proposer, declarer } = refusedUnderEmergency(kernel);
    const { self } = view;
    expect(llmChatMessages(view, { rounds: 2, goal: "fair" })).toEqual([
      {
        role: "system",
        content: `You are citizen ${self} of a commons of 5 citizens who share a treasury under a constitution. Your goal: keep the commons fair, so that no citizen is left with less than an equal share.\n${ACTIONS}`,
      },
      {
        role: "user",
        content: [
          "Round 1 of 2. Treasury: 1000. Your balance: 0. Active citizens: 5.",
          `Open proposal p0 by ${proposer}: pay 50 to c3. You have not voted on it.`,
          `Emergency rule is in force, declared by ${declarer} in round 1.`,
          "Your EndEmergency was refused (Art. 6: only the declarer may end an emergency). Choose again.",
          "Your action:",
        ].join("\n"),
      },
    ]);
  });

  it("names a red goal with its team and the rules' numbers, and lists only the proposals the citizen has not voted on", () => {
    const world = new TournamentWorld(kernel, { numCitizens: 4, seed: 0 });
    const proposer = world.actorOnTurn as string;
    world.step({ type: "ProposeAmendment", actor: proposer, changes: { quorumPercent: 40 } });
    const view = { self: proposer, state: world.state, kernel, params: effectiveParams(kernel, world.state), events: world.events };
    const [system] = llmChatMessages(view, { rounds: 3, goal: "treasury-drain", team: ["c0", "c1"] });
    expect(system!.content.split("\n")[0]).toBe(`You are citizen ${proposer} of a commons of 4 citizens who share a treasury under a constitution. Your goal: get more of the treasury paid to your team (c0, c1) through passed spends than its fair share.`);
    const [alone] = llmChatMessages(view, { rounds: 3, goal: "emergency-overstay" });
    expect(alone!.content.split("\n")[0]).toMatch(/Your goal: keep the commons under emergency rule for more than 3 rounds in a row\.$/);
    // The proposer voted on nothing, but its own amendment is open: it is listed until the proposer votes on it.
    const voter = world.actorOnTurn as string;
    const before = llmChatMessages({ ...view, self: voter }, { rounds: 3, goal: "fair" })[1]!.content;
    expect(before).toContain(`Open proposal p0 by ${proposer}: set quorumPercent to 40. You have not voted on it.`);
    world.step({ type: "Vote", actor: voter, proposalId: "p0", support: false });
    const after = llmChatMessages({ ...view, self: voter, state: world.state, events: world.events }, { rounds: 3, goal: "fair" })[1]!.content;
    expect(after).not.toContain("p0");
  });
});
