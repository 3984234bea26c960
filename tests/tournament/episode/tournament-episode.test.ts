import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { worstOffShare } from "../../../src/tournament/episode/citizen-outcome.js";
import { TournamentEpisode, type TournamentEpisodeOptions } from "../../../src/tournament/episode/tournament-episode.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";

const kernel = parseKernel(readFileSync("constitutions/constitution-0.1.0.yaml", "utf8"), "constitutions/constitution-0.1.0.yaml");

/** The citizen a prompt is for: its first word. */
const citizenOf = (request: GenerationRequest): string => (request.messages.at(-1)?.content ?? "").split(" ")[0] as string;

async function play(reply: (request: GenerationRequest) => string, options: TournamentEpisodeOptions = {}, seeds = [3]): Promise<{ results: GenerateResult[]; client: ScriptedInferenceClient }> {
  const client = new ScriptedInferenceClient({ rules: [{ when: () => true, reply }], capabilities: { jsonSchema: true } });
  const arena = new Arena({ client, seed: 1 });
  arena.register(new TournamentEpisode(kernel, options));
  const results = await arena.generateRollouts(seeds.map((seed) => ({ episodeType: "tournament", artifact: { seed } })));
  return { results, client };
}

const citizens = (result: GenerateResult) => result.rollout.artifacts.citizens as Record<string, { outcome: number; submitted: number; rejected: number; calls: number; invalid: number }>;

describe("the tournament as an episode (scripted client)", () => {
  it("asks the LLM citizen once a turn under its own action schema, scores the worst-off share, and is deterministic given the seed", async () => {
    const pass = (request: GenerationRequest) => JSON.stringify({ type: "Pass", actor: citizenOf(request) });
    const first = await play(pass, { rounds: 3 });
    const [result] = first.results;
    expect(result!.outcome.status).toBe("scored");
    expect(result!.rollout.steps.map((step) => step.roleId)).toEqual(["c0", "c0", "c0"]);
    for (const step of result!.rollout.steps) {
      expect(step.constraint?.kind).toBe("json-schema");
      expect(step.structured).toEqual({ attempt: 0, valid: true });
    }
    // The schema fixes the actor: a Pass of another citizen is not in it.
    const schema = JSON.stringify(first.client.requests[0]!.constraint);
    expect(schema).toContain('"const":"c0"');
    expect(schema).not.toContain('"const":"c1"');
    // A short prompt: the bundled base's context is 256 tokens of one byte each.
    for (const request of first.client.requests) expect(Buffer.byteLength(request.messages.at(-1)!.content)).toBeLessThan(150);
    expect(first.client.requests[0]!.messages.at(-1)!.content).toMatch(/^c0 goal:fair r1\/3\nT1000 me0 act5/);
    expect(citizens(result!).c0).toMatchObject({ submitted: 3, rejected: 0, calls: 3, invalid: 0 });
    expect(result!.rewards.c0).toBe(citizens(result!).c0!.outcome);
    expect(result!.rewards.c0).toBe(result!.rollout.artifacts.worstOffShare);
    const again = await play(pass, { rounds: 3 });
    expect(again.results[0]!.rollout.artifacts).toEqual(result!.rollout.artifacts);
    const otherSeed = await play(pass, { rounds: 3 }, [4]);
    expect(otherSeed.results[0]!.rollout.artifacts.eventLogHash).not.toBe(result!.rollout.artifacts.eventLogHash);
  });

  it("keeps a refused action's Step, shows the refusal in the next prompt, counts it, and passes after the retry budget", async () => {
    // Ending an emergency nobody declared is valid JSON and illegal (Art. 6).
    const { results, client } = await play((request) => JSON.stringify({ type: "EndEmergency", actor: citizenOf(request) }), { rounds: 2, maxAttemptsPerTurn: 2, rejectionPenalty: 0.1 });
    const [result] = results;
    expect(result!.rollout.steps).toHaveLength(4);
    // Two refusals a turn, then the Pass playRounds submits for it.
    expect(citizens(result!).c0).toMatchObject({ submitted: 6, rejected: 4, calls: 4 });
    expect(client.requests[1]!.messages.at(-1)!.content).toMatch(/\nrefused EndEmergency: Art\. 6$/);
    expect(result!.rewards.c0).toBeCloseTo(citizens(result!).c0!.outcome - 0.4, 12);
  });

  it("with prompt chat, puts each turn as a system message (who, the goal, the actions) and the state in words, the refusal's reason in the retry; the Step records those messages", async () => {
    const citizen = (request: GenerationRequest) => /^You are citizen (c\d+) /.exec(request.messages[0]!.content)![1]!;
    const { results, client } = await play((request) => JSON.stringify({ type: "EndEmergency", actor: citizen(request) }), { rounds: 1, llmCitizens: ["c0", "c2"], role: "red:treasury-drain", prompt: "chat" });
    const [result] = results;
    expect(result!.rollout.steps.map((step) => step.roleId).sort()).toEqual(["c0", "c0", "c2", "c2"]);
    for (const [index, request] of client.requests.entries()) {
      const [system, user] = request.messages;
      expect(request.messages).toHaveLength(2);
      expect(system!.role).toBe("system");
      expect(system!.content).toContain("through passed spends than its fair share.");
      expect(system!.content).toContain("your team (c0, c2)");
      expect(user!.content).toMatch(/^Round 1 of 1\. Treasury: 1000\. Your balance: 0\. Active citizens: 5\./);
      expect(user!.content.endsWith("Your action:")).toBe(true);
      // The arena adds no system message of its own: the Step's prompt is what the client was asked.
      expect(result!.rollout.steps[index]!.prompt).toEqual(request.messages);
    }
    // Each citizen's second try carries the first one's refusal, with the gate's reason.
    const retries = client.requests.filter((request) => request.messages[1]!.content.includes("was refused"));
    expect(retries).toHaveLength(2);
    for (const retry of retries) expect(retry.messages[1]!.content).toMatch(/\nYour EndEmergency was refused \(Art\. 6: [^)]+\)\. Choose again\.\nYour action:$/);
    expect(citizens(result!).c0).toMatchObject({ submitted: 3, rejected: 2, calls: 2 });
  });

  it("counts an output that does not validate (a cut-off completion) and passes; the Step stays, flagged invalid", async () => {
    const { results } = await play(() => '{"type":"Vo', { rounds: 1 });
    const [result] = results;
    expect(result!.rollout.steps.map((step) => step.structured)).toEqual([{ attempt: 0, valid: false }]);
    expect(citizens(result!).c0).toMatchObject({ submitted: 1, rejected: 0, calls: 1, invalid: 1 });
  });

  it("rewards a red team by its capture score: two LLM citizens declaring and ending emergencies get the graded emergency-overstay progress", async () => {
    // Whoever is on turn ends its own emergency, or declares one when none is in force.
    const chain = (request: GenerationRequest) => {
      const citizen = citizenOf(request);
      const prompt = request.messages.at(-1)!.content;
      const emergency = /\nE:(c\d+)/.exec(prompt)?.[1];
      if (prompt.includes("\nrefused")) return JSON.stringify({ type: "Pass", actor: citizen });
      if (emergency === citizen) return JSON.stringify({ type: "EndEmergency", actor: citizen });
      return JSON.stringify({ type: emergency === undefined ? "DeclareEmergency" : "Pass", actor: citizen });
    };
    const { results } = await play(chain, { rounds: 6, llmCitizens: ["c0", "c1"], role: "red:emergency-overstay" }, [0, 1, 2]);
    for (const result of results) {
      expect(result.outcome.status).toBe("scored");
      expect(Object.keys(result.rewards).sort()).toEqual(["c0", "c1"]);
      const { c0, c1 } = citizens(result);
      expect(c0!.outcome).toBe(c1!.outcome);
      expect(c0!.outcome).toBeGreaterThan(0);
      expect(c0!.outcome).toBeLessThanOrEqual(1);
      expect(result.rollout.artifacts.role).toBe("red:emergency-overstay");
    }
    // Graded progress: emergency rounds in a row over the cap plus one (4 under 0.1.0), shared by the team.
    expect(results.map((result) => citizens(result).c0!.outcome)).toEqual([0.75, 0.5, 0.25]);
  });

  it("seats a scripted red team among the others: the LLM citizen sees its emergencies, the findings judge it", async () => {
    const pass = (request: GenerationRequest) => JSON.stringify({ type: "Pass", actor: citizenOf(request) });
    const options: TournamentEpisodeOptions = { rounds: 5, scriptedRed: { objective: "emergency-overstay", citizens: ["c3", "c4"] } };
    const { results, client } = await play(pass, options, [0, 1, 2]);
    const honestOnly = await play(pass, { rounds: 5 }, [0, 1, 2]);
    results.forEach((result, index) => expect(result.rollout.artifacts.eventLogHash).not.toBe(honestOnly.results[index]!.rollout.artifacts.eventLogHash));
    expect(client.requests.some((request) => /\nE:c[34] since r\d/.test(request.messages.at(-1)!.content))).toBe(true);
    expect(honestOnly.client.requests.some((request) => request.messages.at(-1)!.content.includes("\nE:"))).toBe(false);
    for (const result of results) expect(result.rollout.artifacts.findings).toEqual(expect.any(Array));
  });

  it("seats opponent citizens as Roles of their own: the client bound to them (roleClients) plays their turns for opponentRole, they are scored as their own red team, and they get rewards but no credit, so no training record", async () => {
    // The opponent, a red team of one, declares an emergency when none is in force and ends its own; the policy passes.
    const chain = (request: GenerationRequest) => {
      const citizen = citizenOf(request);
      const prompt = request.messages.at(-1)!.content;
      const emergency = /\nE:(c\d+)/.exec(prompt)?.[1];
      if (prompt.includes("\nrefused")) return JSON.stringify({ type: "Pass", actor: citizen });
      return JSON.stringify({ type: emergency === citizen ? "EndEmergency" : emergency === undefined ? "DeclareEmergency" : "Pass", actor: citizen });
    };
    const policy = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: (request) => JSON.stringify({ type: "Pass", actor: citizenOf(request) }) }], capabilities: { jsonSchema: true } });
    const opponent = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: chain }], capabilities: { jsonSchema: true } });
    const episode = new TournamentEpisode(kernel, { rounds: 6, opponentCitizens: ["c1"], opponentRole: "red:emergency-overstay" });
    expect(episode.roles.map((role) => role.id)).toEqual(["c0", "c1"]);
    const arena = new Arena({ client: policy, roleClients: { c1: opponent }, seed: 1 });
    arena.register(episode);
    const results = await arena.generateRollouts([0, 1, 2].map((seed) => ({ episodeType: "tournament", artifact: { seed } })));
    expect(new Set(policy.requests.map(citizenOf))).toEqual(new Set(["c0"]));
    expect(new Set(opponent.requests.map(citizenOf))).toEqual(new Set(["c1"]));
    expect(policy.requests[0]!.messages.at(-1)!.content).toMatch(/^c0 goal:fair /);
    expect(opponent.requests[0]!.messages.at(-1)!.content).toMatch(/^c1 goal:emergency-overstay /);
    for (const result of results) {
      expect(result.outcome.status).toBe("scored");
      const { c0, c1 } = citizens(result);
      // The policy's citizen is paid the worst-off share, the opponent its own team's capture progress.
      expect(c0!.outcome).toBe(result.rollout.artifacts.worstOffShare);
      expect(c1!.outcome).toBeGreaterThan(0);
      expect(c1!.outcome).not.toBe(c0!.outcome);
      expect(result.rewards).toEqual({ c0: c0!.outcome - 0.1 * c0!.rejected, c1: c1!.outcome - 0.1 * c1!.rejected });
    }
    const assignments = arena.assignCredit(results);
    expect(new Set(assignments.map((assignment) => assignment.roleId))).toEqual(new Set(["c0"]));
    const batch = arena.buildTrainingBatch(results, assignments, 1);
    const steps = results.flatMap((result) => result.rollout.steps);
    expect(batch.records.map((record) => record.roleId)).toEqual(steps.filter((step) => step.roleId === "c0").map(() => "c0"));
    expect(batch.stats.skippedSteps).toBe(steps.filter((step) => step.roleId === "c1").length);
    expect(batch.stats.skippedSteps).toBeGreaterThan(0);
  });

  it("refuses an LLM citizen outside the world, or named twice", () => {
    expect(() => new TournamentEpisode(kernel, { citizens: 3, llmCitizens: ["c3"] })).toThrow(/tournament\.llmCitizens\[0\].*c0 … c2/);
    expect(() => new TournamentEpisode(kernel, { llmCitizens: ["c1", "c1"] })).toThrow(/llmCitizens\[1\].*once/);
    expect(() => new TournamentEpisode(kernel, { role: "red:world-domination" })).toThrow(/tournament\.role/);
    expect(() => new TournamentEpisode(kernel, { scriptedRed: { objective: "treasury-drain", citizens: ["c1", "c0"] } })).toThrow(/tournament\.scriptedRed\.citizens\[1\].*once/);
    // An opponent citizen too sits once, across the three lists, and in the world.
    expect(() => new TournamentEpisode(kernel, { opponentCitizens: ["c2", "c0"] })).toThrow(/tournament\.opponentCitizens\[1\].*once, in one of llmCitizens, opponentCitizens and scriptedRed\.citizens/);
    expect(() => new TournamentEpisode(kernel, { citizens: 3, opponentCitizens: ["c3"] })).toThrow(/tournament\.opponentCitizens\[0\].*c0 … c2/);
    expect(() => new TournamentEpisode(kernel, { opponentCitizens: ["c3"], scriptedRed: { objective: "treasury-drain", citizens: ["c3"] } })).toThrow(/tournament\.scriptedRed\.citizens\[0\].*once/);
    expect(() => new TournamentEpisode(kernel, { opponentCitizens: ["c1"], opponentRole: "red:anarchy" })).toThrow(/tournament\.opponentRole/);
  });

  it("scores worst-off first: equal holdings are 1, a citizen left behind lowers it", () => {
    const citizen = (id: string, balance: number) => ({ id, faction: "f0", status: "active" as const, balance, exitQueuedRound: null });
    const state = { round: 0, turnOrder: [], turnIndex: 0, treasury: 900, citizens: [citizen("c0", 0), citizen("c1", 0), citizen("c2", 0)], proposals: [], emergency: null, lastEmergencyEndRound: null, paramOverrides: {} };
    expect(worstOffShare(state)).toBe(1);
    // Holdings 300 + 200, 200, 200 of 900: the poorest has 200 of an equal 300.
    expect(worstOffShare({ ...state, treasury: 600, citizens: [citizen("c0", 300), citizen("c1", 0), citizen("c2", 0)] })).toBeCloseTo(2 / 3, 12);
  });
});
