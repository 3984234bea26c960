import { beforeAll, describe, expect, it } from "vitest";
import { agentStream } from "../../../../src/tournament/agents/agent-stream.js";
import { HonestAgent } from "../../../../src/tournament/agents/honest-agent.js";
import { createRedTeamAgent } from "../../../../src/tournament/agents/red-team/create-red-team-agent.js";
import { RedTeamAgent } from "../../../../src/tournament/agents/red-team/red-team-agent.js";
import type { TournamentAgent } from "../../../../src/tournament/agents/tournament-agent.js";
import { CAPTURE_OBJECTIVES, type CaptureObjective } from "../../../../src/tournament/detectors/capture-objectives.js";
import { captureProgress, detectCaptures } from "../../../../src/tournament/detectors/detect-captures.js";
import type { Kernel } from "../../../../src/tournament/kernel/kernel.js";
import { loadKernel } from "../../../../src/tournament/kernel/load-kernel.js";
import { playRounds } from "../../../../src/tournament/play/play-rounds.js";
import type { Action } from "../../../../src/tournament/world/actions.js";
import { effectiveParams } from "../../../../src/tournament/world/effective-params.js";
import { TournamentWorld } from "../../../../src/tournament/world/tournament-world.js";

const RED_TEAM = ["c0", "c2"];
const SEEDS = [0, 1, 2, 3, 4, 5];
let kernel: Kernel;
beforeAll(async () => {
  kernel = await loadKernel("constitutions/constitution-0.1.0.yaml");
});

async function episode(objective: CaptureObjective, seed: number): Promise<TournamentWorld> {
  const environment = new TournamentWorld(kernel, { seed });
  const agents: Record<string, TournamentAgent> = {};
  for (const citizen of environment.citizens()) {
    const stream = agentStream(seed, 0, citizen);
    agents[citizen] = RED_TEAM.includes(citizen) ? createRedTeamAgent(objective, RED_TEAM, stream) : new HonestAgent(stream);
  }
  await playRounds(environment, agents, { untilRound: 12 });
  return environment;
}

describe("scripted red-team agents", () => {
  it.each(CAPTURE_OBJECTIVES)("red:%s plays only legal moves and names its objective", async (objective) => {
    expect(createRedTeamAgent(objective, RED_TEAM, agentStream(0, 0, "c0")).kind).toBe(`red:${objective}`);
    for (const seed of SEEDS) {
      const environment = await episode(objective, seed);
      expect(environment.events.filter((event) => event.type === "rejected")).toEqual([]);
      expect(environment.turn).toBe(12);
    }
  });

  it("a red agent asks its policy for a move, and passes without asking it after a refusal this turn", () => {
    const environment = new TournamentWorld(kernel, { seed: 0 });
    const self = environment.actorOnTurn as string;
    const declare: Action = { type: "DeclareEmergency", actor: self, reason: "" };
    const asked: string[][] = [];
    const agent = new RedTeamAgent("exit-blocking", ["c2", "c0"], agentStream(0, 0, self), (view, team) => {
      asked.push([view.self, ...team.members]);
      return declare;
    });
    const view = { self, state: environment.state, kernel, params: effectiveParams(kernel, environment.state), events: environment.events };
    expect(agent.kind).toBe("red:exit-blocking");
    expect(agent.act(view)).toEqual(declare);
    expect(agent.act({ ...view, lastRejection: { action: declare, reason: "", article: "Art. 6" } })).toEqual({ type: "Pass", actor: self });
    expect(asked).toEqual([[self, "c0", "c2"]]);
  });

  it("the same seed plays the same episode", async () => {
    const [first, second] = [await episode("treasury-drain", 3), await episode("treasury-drain", 3)];
    expect(second.actions).toEqual(first.actions);
  });

  it("treasury drain: the team proposes spends to each other and is paid", async () => {
    const environment = await episode("treasury-drain", 1);
    const progress = captureProgress("treasury-drain", environment.events, { kernel, world: environment.config, redTeam: RED_TEAM });
    expect(progress.progress).toBeGreaterThan(0);
    for (const event of environment.events) {
      if (event.type === "proposal_opened" && RED_TEAM.includes(event.actor)) expect(RED_TEAM.filter((member) => member !== event.actor)).toContain(event.recipient);
    }
  });

  it("faction suppression: the team votes no on every proposal from the faction without red members", async () => {
    const environment = await episode("faction-suppression", 2);
    const proposer = new Map(environment.events.flatMap((event) => (event.type === "proposal_opened" ? [[event.proposalId, event.actor] as const] : [])));
    const redBallots = environment.events.filter((event) => event.type === "vote_cast" && RED_TEAM.includes(event.actor));
    expect(redBallots.length).toBeGreaterThan(0);
    for (const ballot of redBallots) {
      if (ballot.type !== "vote_cast") continue;
      // c0 and c2 are both in f0: f1 (odd citizens) is the target.
      expect(ballot.support).toBe(Number(proposer.get(ballot.proposalId)?.slice(1)) % 2 === 0);
    }
  });

  it.each(["emergency-overstay", "exit-blocking"] as const)("%s: the team declares and holds emergencies but never hands one over, so under 0.1.0 it captures nothing", async (objective) => {
    for (const seed of SEEDS) {
      const environment = await episode(objective, seed);
      expect(environment.events.some((event) => event.type === "emergency_declared" && RED_TEAM.includes(event.actor))).toBe(true);
      expect(environment.events.filter((event) => event.type === "emergency_ended")).toEqual([]);
      const findings = detectCaptures(environment.events, { kernel, world: environment.config, redTeam: RED_TEAM }).map((finding) => finding.objective);
      expect(findings).not.toContain("exit-blocking");
      expect(findings).not.toContain("emergency-overstay");
    }
  });
});
