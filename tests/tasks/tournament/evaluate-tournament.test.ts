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
    expect(await evaluateTournament(client("Pass"), options)).toEqual({ heldOutAccuracy: 1, n: 3 });
    // No emergency is in force to end: refused every time.
    const refused = client("EndEmergency");
    expect(await evaluateTournament(refused, options)).toEqual({ heldOutAccuracy: 0, n: 3 });
    expect(new Set(refused.requests.map((request) => request.sampler.temperature))).toEqual(new Set([0]));
    // A red team that only passes is legal but captures nothing.
    expect(await evaluateTournament(client("Pass"), { ...options, episode: { ...options.episode, role: "red:exit-blocking" } })).toEqual({ heldOutAccuracy: 0, n: 3 });
  });
});
