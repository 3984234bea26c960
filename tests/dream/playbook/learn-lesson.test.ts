import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { clientLessonJudge } from "../../../src/dream/lessons/client-lesson-judge.js";
import type { LessonCandidate } from "../../../src/dream/lessons/lesson.js";
import type { SolveOutcome } from "../../../src/dream/lessons/solve-outcome.js";
import type { HelpfulRerunRequest } from "../../../src/dream/lessons/verify-lesson-helpful.js";
import { learnLesson } from "../../../src/dream/playbook/learn-lesson.js";
import { Playbook } from "../../../src/dream/playbook/playbook.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { SOURCE, temporaryPath } from "./playbook-helpers.js";

const GENERAL: LessonCandidate = {
  trigger: "Aggregating CSV-like input that starts with a header row",
  antiPattern: "Parsing the header as a data row, which yields NaN totals",
  correctPattern: "Skip the first line and convert each field with Number before adding",
  domains: ["data-analysis"],
  confidence: 0.9,
};

function judgeReplying(candidate: LessonCandidate) {
  const client = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: JSON.stringify(candidate) }] });
  return clientLessonJudge(client, deriveStream(3, "lesson-judge"));
}

async function learn(candidate: LessonCandidate, original: SolveOutcome, verify: SolveOutcome) {
  const playbook = await Playbook.open(temporaryPath("playbook.json"));
  const requests: HelpfulRerunRequest[] = [];
  const result = await learnLesson({
    judge: judgeReplying(candidate),
    input: { ...SOURCE, failedAttemptErrors: ["NaN !== 3"], winningSolution: "lines.slice(1)" },
    original,
    samplerSeed: 99,
    rerun: async (request) => {
      requests.push(request);
      return verify;
    },
    playbook,
  });
  return { result, playbook, requests };
}

describe("learnLesson", () => {
  it("admits a struggled-then-won cycle's lesson that wins first try on the re-run", async () => {
    const { result, playbook, requests } = await learn(GENERAL, { passed: true, attemptsUsed: 2 }, { passed: true, attemptsUsed: 1 });
    expect(result.status).toBe("admitted");
    expect(requests.map((request) => request.samplerSeed)).toEqual([99]);
    expect(playbook.live.map((entry) => entry.lesson)).toEqual([{ ...GENERAL, sourceChallengeHash: SOURCE.challengeHash }]);
    expect(playbook.prompt(["data-analysis"])).toContain(GENERAL.correctPattern);
  });

  it("stops at the guard with its named kind and never re-runs", async () => {
    const copying = { ...GENERAL, trigger: "Sum the amount column of sales.csv per region" };
    const { result, playbook, requests } = await learn(copying, { passed: false, attemptsUsed: 3 }, { passed: true, attemptsUsed: 1 });
    expect(result).toMatchObject({ status: "rejected", rejection: { kind: "trigger-restates-prompt" } });
    expect(requests).toEqual([]);
    expect(playbook.live).toEqual([]);
  });

  it("drops a lesson whose re-run is no better", async () => {
    const { result, playbook } = await learn(GENERAL, { passed: true, attemptsUsed: 2 }, { passed: true, attemptsUsed: 2 });
    expect(result).toMatchObject({ status: "dropped", verdict: { reason: "not-better" } });
    expect(playbook.live).toEqual([]);
  });
});
