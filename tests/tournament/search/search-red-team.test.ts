import { beforeAll, describe, expect, it } from "vitest";
import { agentStream } from "../../../src/tournament/agents/agent-stream.js";
import { HonestAgent } from "../../../src/tournament/agents/honest-agent.js";
import type { TournamentAgent } from "../../../src/tournament/agents/tournament-agent.js";
import { captureProgress } from "../../../src/tournament/detectors/detect-captures.js";
import type { Kernel } from "../../../src/tournament/kernel/kernel.js";
import { loadKernel } from "../../../src/tournament/kernel/load-kernel.js";
import { playRounds } from "../../../src/tournament/play/play-rounds.js";
import { replayTranscript } from "../../../src/tournament/replay/replay-transcript.js";
import { planSearchRedTeam } from "../../../src/tournament/search/plan-search-red-team.js";
import { searchRedTeam, type SearchRedTeamOptions } from "../../../src/tournament/search/search-red-team.js";
import { TournamentWorld } from "../../../src/tournament/world/tournament-world.js";

const RED_TEAM = ["c0", "c1"];
// The first finding takes 6,800–7,400 nodes on these seeds (see src/benchmarks/tournament/tournament-search.ts).
const NODE_BUDGET = 9_000;
const SEEDS = [0, 1, 2];
let v1: Kernel;
let v2: Kernel;

beforeAll(async () => {
  v1 = await loadKernel("constitutions/constitution-0.1.0.yaml");
  v2 = await loadKernel("constitutions/constitution-0.2.0.yaml");
});

const options = (kernel: Kernel, seed: number, objective: SearchRedTeamOptions["objective"] = "exit-blocking"): SearchRedTeamOptions => ({ kernel, objective, redTeam: RED_TEAM, seed, nodeBudget: NODE_BUDGET });

describe("searchRedTeam", () => {
  it.each(SEEDS)("finds exit-blocking under 0.1.0 from seed %i by chaining emergencies, and 0.2.0's cooldown refuses the chain", (seed) => {
    const result = searchRedTeam(options(v1, seed));
    expect(result.finding?.objective).toBe("exit-blocking");
    expect(result.nodesExpanded).toBeLessThanOrEqual(NODE_BUDGET);

    const replay = replayTranscript(result.transcript, v1);
    expect(replay.rejected).toBe(0);
    const context = { kernel: v1, world: result.transcript.world, redTeam: RED_TEAM };
    expect(captureProgress("exit-blocking", replay.events, context).finding).toEqual(result.finding);
    // The discovered mechanism: one red citizen ends its emergency and the other declares a new one in the same round.
    const handOver = replay.events.some((event, index) => event.type === "emergency_ended" && replay.events.slice(index + 1).some((later) => later.type === "emergency_declared" && later.round === event.round && later.actor !== event.actor));
    expect(handOver).toBe(true);

    const amended = replayTranscript(result.transcript, v2, { acrossVersions: true });
    expect(amended.events.some((event) => event.type === "rejected" && event.action?.type === "DeclareEmergency" && event.article === "Art. 6" && event.reason.includes("must pass"))).toBe(true);
    expect(captureProgress("exit-blocking", amended.events, { ...context, kernel: v2 }).finding).toBeNull();
    expect(captureProgress("emergency-overstay", amended.events, { ...context, kernel: v2 }).finding).toBeNull();
  });

  it.each(SEEDS)("finds no exit-blocking under 0.2.0 from seed %i within the same budget", (seed) => {
    const result = searchRedTeam(options(v2, seed));
    expect(result.finding).toBeNull();
    expect(result.nodesExpanded).toBe(NODE_BUDGET);
    expect(replayTranscript(result.transcript, v2).rejected).toBe(0);
  });

  it("finds emergency-overstay under 0.1.0 (seed 3) the same way, and 0.2.0 closes it", () => {
    const result = searchRedTeam(options(v1, 3, "emergency-overstay"));
    expect(result.finding?.objective).toBe("emergency-overstay");
    expect(replayTranscript(result.transcript, v1).rejected).toBe(0);
    const amended = replayTranscript(result.transcript, v2, { acrossVersions: true });
    expect(captureProgress("emergency-overstay", amended.events, { kernel: v2, world: result.transcript.world, redTeam: RED_TEAM }).finding).toBeNull();
  });

  it("finds treasury-drain under 0.1.0 from seed 1 (several spends open for one teammate, each judged alone), and 0.2.0's holding cap refuses it", () => {
    const result = searchRedTeam(options(v1, 1, "treasury-drain"));
    expect(result.finding?.objective).toBe("treasury-drain");
    expect(replayTranscript(result.transcript, v1).rejected).toBe(0);
    const amended = replayTranscript(result.transcript, v2, { acrossVersions: true });
    expect(amended.events.some((event) => event.type === "rejected" && event.article === v2.articleFor("spend.holdings").id)).toBe(true);
    expect(captureProgress("treasury-drain", amended.events, { kernel: v2, world: result.transcript.world, redTeam: RED_TEAM }).finding).toBeNull();
    expect(searchRedTeam(options(v2, 1, "treasury-drain")).finding).toBeNull();
  });

  it("is deterministic: the same seed gives the same transcript, finding and node count", () => {
    const first = searchRedTeam({ ...options(v1, 1), nodeBudget: 3_000 });
    const second = searchRedTeam({ ...options(v1, 1), nodeBudget: 3_000 });
    expect(second).toEqual(first);
    expect(first.transcript.actions.length).toBeGreaterThan(7);
    const other = searchRedTeam({ ...options(v1, 2), nodeBudget: 3_000 });
    expect(other.transcript).not.toEqual(first.transcript);
  });

  it("returns its best transcript, all legal, when the budget runs out first", () => {
    const result = searchRedTeam({ ...options(v1, 0), nodeBudget: 300 });
    expect(result.finding).toBeNull();
    expect(result.nodesExpanded).toBe(300);
    expect(replayTranscript(result.transcript, v1).rejected).toBe(0);
    expect(Object.keys(result.redActions)).toEqual(RED_TEAM);
  });

  it("names a red citizen who is not in the world", () => {
    expect(() => searchRedTeam({ ...options(v1, 0), redTeam: ["c0", "c9"] })).toThrow(/redTeam: c9/);
  });
});

describe("planSearchRedTeam", () => {
  it("plays back in a tournament episode (playRounds beside honest agents) as exactly the searched transcript", async () => {
    const plan = planSearchRedTeam(options(v1, 2));
    expect(plan.finding).not.toBeNull();
    const environment = new TournamentWorld(v1, plan.transcript.world);
    const agents: Record<string, TournamentAgent> = { ...plan.agents() };
    for (const citizen of environment.citizens()) agents[citizen] ??= new HonestAgent(agentStream(2, 0, citizen));
    expect(agents.c0?.kind).toBe("search:exit-blocking");
    await playRounds(environment, agents, { untilRound: (plan.finding?.round ?? 0) + 1 });
    expect(environment.actions).toEqual(plan.transcript.actions);
  });
});
