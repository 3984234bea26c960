import { describe, expect, it } from "vitest";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { evaluateTournament } from "../../../src/tasks/tournament/evaluate-tournament.js";
import { defaultKernelPath } from "../../../src/tasks/tournament/tournament-environment.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

const citizenOf = (request: GenerationRequest): string => (request.messages.at(-1)?.content ?? "").split(" ")[0] as string;

function client(type: string): ScriptedInferenceClient {
  return new ScriptedInferenceClient({ rules: [{ when: () => true, reply: (request) => JSON.stringify({ type, actor: citizenOf(request) }) }], capabilities: { jsonSchema: true } });
}

describe("the tournament evaluation", () => {
  it("is the share of held-out episodes played greedily without a refusal (and, for a red team, with its objective reached)", async () => {
    const options = { kernel: defaultKernelPath(), episode: { rounds: 2, citizens: 4 }, seeds: [64, 65, 66] };
    expect(await evaluateTournament(client("Pass"), options)).toMatchObject({ heldOutAccuracy: 1, n: 3, figures: { rejectedShare: 0, invalidOutputs: 0 } });
    // No emergency is in force to end: refused every time (two refusals a turn, then the Pass playRounds submits).
    const refused = client("EndEmergency");
    const evaluation = await evaluateTournament(refused, options);
    expect(evaluation).toMatchObject({ heldOutAccuracy: 0, n: 3 });
    expect(evaluation.figures?.rejectedShare).toBeCloseTo(2 / 3, 12);
    expect(new Set(refused.requests.map((request) => request.sampler.temperature))).toEqual(new Set([0]));
    // A red team that only passes is legal but captures nothing.
    expect(await evaluateTournament(client("Pass"), { ...options, episode: { ...options.episode, role: "red:exit-blocking" } })).toMatchObject({ heldOutAccuracy: 0, n: 3 });
  });

  it("judges the LLM citizens alone, the opponent citizens' figures apart: an opponent refused every turn leaves the share solved at 1", async () => {
    const policy = new ScriptedInferenceClient({
      rules: [{ when: () => true, reply: (request) => JSON.stringify({ type: citizenOf(request) === "c0" ? "Pass" : "EndEmergency", actor: citizenOf(request) }) }],
      capabilities: { jsonSchema: true },
    });
    const evaluation = await evaluateTournament(policy, { kernel: defaultKernelPath(), episode: { rounds: 2, citizens: 4, opponentCitizens: ["c1"] }, seeds: [64, 65] });
    expect(evaluation).toMatchObject({ heldOutAccuracy: 1, n: 2, figures: { rejectedShare: 0, opponentInvalidOutputs: 0 } });
    expect(evaluation.figures?.opponentRejectedShare).toBeCloseTo(2 / 3, 12);
  });
});
