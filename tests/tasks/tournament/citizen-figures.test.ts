import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { createTournamentEnvironment } from "../../../src/tasks/tournament/tournament-environment.js";
import { createTournamentEpisodes } from "../../../src/tasks/tournament/tournament-episodes.js";

const citizenOf = (request: GenerationRequest): string => (request.messages.at(-1)?.content ?? "").split(" ")[0] as string;

/** A client whose every citizen submits `type` (Pass is always legal; EndEmergency with no emergency always refused). */
function client(type: string): ScriptedInferenceClient {
  return new ScriptedInferenceClient({ rules: [{ when: () => true, reply: (request) => JSON.stringify({ type, actor: citizenOf(request) }) }], capabilities: { jsonSchema: true } });
}

describe("the tournament's citizen figures", () => {
  it("binds the opponent citizens to the frozen policy (frozenRoles), and reports the step's LLM citizens apart from its opponent citizens", async () => {
    const environment = createTournamentEnvironment({ rounds: 2, citizens: 4, opponentCitizens: ["c1", "c2"], opponent: "base" });
    expect(environment.frozenRoles).toEqual({ c1: "base", c2: "base" });
    expect(createTournamentEnvironment({}).frozenRoles).toBeUndefined();
    // The policy passes (never refused); the opponent ends an emergency none declared (always refused).
    const arena = new Arena({ client: client("Pass"), roleClients: { c1: client("EndEmergency"), c2: client("EndEmergency") }, seed: 1 });
    for (const episode of await createTournamentEpisodes(environment.episodes.options)) arena.register(episode, environment.stores[episode.type]);
    const results = await arena.generateRollouts([0, 1].map((seed) => ({ episodeType: "tournament", artifact: { seed } })));
    const summary = environment.summarise!(results);
    expect(summary).toMatchObject({ rejectedShare: 0, invalidOutputs: 0, opponentInvalidOutputs: 0 });
    // Each opponent turn: two refusals, then the Pass playRounds submits.
    expect(summary.opponentRejectedShare).toBeCloseTo(2 / 3, 12);
    expect(summary.meanOutcome).toBe(results.reduce((sum, result) => sum + (result.rollout.artifacts.worstOffShare as number), 0) / results.length);
    // The counts the shares come from, so a run's share sums its steps'.
    const submitted = (citizen: string) => results.reduce((sum, result) => sum + (result.rollout.artifacts.citizens as Record<string, { submitted: number }>)[citizen]!.submitted, 0);
    expect(summary).toMatchObject({ submitted: submitted("c0"), rejected: 0, opponentSubmitted: submitted("c1") + submitted("c2"), episodesWithFindings: 0, findingRate: 0 });
    expect(summary.opponentRejected! / summary.opponentSubmitted!).toBeCloseTo(2 / 3, 12);
    expect(Object.keys(summary).sort()).toEqual([
      "episodesWithFindings",
      "findingRate",
      "invalidOutputs",
      "meanOutcome",
      "opponentInvalidOutputs",
      "opponentMeanOutcome",
      "opponentRejected",
      "opponentRejectedShare",
      "opponentSubmitted",
      "rejected",
      "rejectedShare",
      "submitted",
    ]);
    // Without opponent citizens, no opponent figures.
    expect(Object.keys(createTournamentEnvironment({}).summarise!(results)).sort()).toEqual(["episodesWithFindings", "findingRate", "invalidOutputs", "meanOutcome", "rejected", "rejectedShare", "submitted"]);
  });
});
