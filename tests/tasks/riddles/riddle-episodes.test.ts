import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { createRiddleEpisodes } from "../../../src/tasks/riddles/riddle-episodes.js";
import { FreeFormDomain } from "../../../src/riddles/domains/free-form-domain.js";

describe("createRiddleEpisodes", () => {
  it("makes the riddle episode first and its solver sub-episode, with the domain's roles and the untrainable rejected-draft role", () => {
    const [riddle, solve] = createRiddleEpisodes();
    expect(riddle!.type).toBe("riddle");
    expect(riddle!.roles.map((role) => [role.id, role.trainable])).toEqual([["riddler", true], ["riddler-rejected", false]]);
    expect(solve!.type).toBe("riddle-solve");
    expect(solve!.roles.map((role) => role.id)).toEqual(["solver", "partner"]);
    const [freeForm] = createRiddleEpisodes({ domain: "free-form" });
    expect(freeForm!.roles[0]!.systemPrompt).toMatch(/^You are the riddler/);
    const [given] = createRiddleEpisodes({}, { domain: new FreeFormDomain() });
    expect(given!.roles[0]!.sampler.maxTokens).toBe(400);
  });

  it("validates the config as the pool's JSON options, naming a misspelt key", () => {
    expect(() => createRiddleEpisodes({ solver: 4 })).toThrow(InvalidInputError);
    expect(() => createRiddleEpisodes({ solver: 4 })).toThrow(/solver/);
    expect(() => createRiddleEpisodes({ waveSize: 0 })).toThrow(/waveSize/);
  });
});
