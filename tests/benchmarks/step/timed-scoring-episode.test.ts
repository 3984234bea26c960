import { describe, expect, it } from "vitest";
import { TimedScoringEpisode } from "../../../src/benchmarks/step/timed-scoring-episode.js";
import { Arena } from "../../../src/arena/arena.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { ask, QuestionEpisode } from "../../helpers/echo-episode.js";

const client = () => new ScriptedInferenceClient({ rules: [{ when: /France/, reply: "Paris" }, { when: /.*/s, reply: "Rome" }] });
const requests = [ask("Capital of France?", "Paris"), ask("Capital of Peru?", "Lima"), ask("Capital of Italy?", "Rome")];

describe("TimedScoringEpisode", () => {
  it("plays and scores exactly like the episode it wraps", async () => {
    const plain = await new Arena({ client: client(), seed: 3 }).register(new QuestionEpisode()).generateRollouts(requests);
    const timed = await new Arena({ client: client(), seed: 3 }).register(new TimedScoringEpisode(new QuestionEpisode(), { seconds: 0 })).generateRollouts(requests);
    expect(timed).toEqual(plain);
    expect(timed.map((result) => result.rewards.answerer)).toEqual([1, 0, 1]);
  });

  it("adds the time spent inside the verifier, once per scored rollout", async () => {
    let clock = 0;
    // Each read advances the clock 5 ms: a score call reads it twice, so it counts 5 ms.
    const now = () => (clock += 5);
    const timer = { seconds: 0 };
    await new Arena({ client: client(), seed: 3 }).register(new TimedScoringEpisode(new QuestionEpisode(), timer, now)).generateRollouts(requests);
    expect(timer.seconds).toBeCloseTo(3 * 0.005, 12);
  });

  it("counts the time of a verifier that throws, and the rollout fails at scoring as it would unwrapped", async () => {
    let clock = 0;
    const timer = { seconds: 0 };
    const failing = new QuestionEpisode("question", {}, { score: async () => { throw new Error("no verdict"); } });
    const [result] = await new Arena({ client: client(), seed: 3 })
      .register(new TimedScoringEpisode(failing, timer, () => (clock += 2)))
      .generateRollouts([ask("Capital of France?", "Paris")]);
    expect(result?.outcome).toMatchObject({ status: "failed", stage: "score", error: { message: "no verdict" } });
    expect(timer.seconds).toBeCloseTo(0.002, 12);
  });
});
