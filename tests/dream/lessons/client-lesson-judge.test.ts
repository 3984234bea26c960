import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { emptyStructuredOutputStats } from "../../../src/core/structured/structured-output-stats.js";
import { clientLessonJudge } from "../../../src/dream/lessons/client-lesson-judge.js";
import { extractLesson } from "../../../src/dream/lessons/extract-lesson.js";
import { checkGeneralization } from "../../../src/dream/lessons/generalization-guard.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { GENERAL, SOURCE } from "./lesson-fixtures.js";

const INPUT = {
  prompt: SOURCE.prompt,
  setup: SOURCE.setup,
  validator: SOURCE.validator,
  failedAttemptErrors: ["TypeError: Cannot read properties of null (reading '1')"],
  winningSolution: "const m = line.match(/ (\\d{3})$/); if (!m) continue;",
  challengeHash: SOURCE.challengeHash,
};

describe("clientLessonJudge", () => {
  it("extracts a lesson from a ScriptedInferenceClient: greedy, 512 tokens, seeds from the stream", async () => {
    let calls = 0;
    const client = new ScriptedInferenceClient({
      rules: [{ when: /review a solved JavaScript/, reply: () => (calls++ === 0 ? "I think the lesson is" : JSON.stringify(GENERAL)) }],
    });
    const stats = emptyStructuredOutputStats();
    const extracted = await extractLesson(clientLessonJudge(client, deriveStream(7, "lessons"), { stats }), INPUT);
    expect(extracted).toMatchObject({ candidate: GENERAL, attempts: 2 });
    expect(stats).toMatchObject({ calls: 1, resamples: 1, failures: 0 });
    const [first, second] = client.requests;
    expect(first?.sampler).toMatchObject({ temperature: 0, maxTokens: 512 });
    const stream = deriveStream(7, "lessons");
    expect([first?.sampler.seed, second?.sampler.seed]).toEqual([stream.uint32(), stream.uint32()]);
    expect(first?.constraint).toBeNull();
    expect(checkGeneralization(extracted.candidate, SOURCE).accepted).toBe(true);
  });

  it("constrains to the lesson schema when the client can", async () => {
    const client = new ScriptedInferenceClient({
      rules: [{ when: () => true, reply: JSON.stringify(GENERAL) }],
      capabilities: { jsonSchema: true },
    });
    await extractLesson(clientLessonJudge(client, deriveStream(7, "lessons")), INPUT);
    expect(client.requests[0]?.constraint?.kind).toBe("json-schema");
  });
});
