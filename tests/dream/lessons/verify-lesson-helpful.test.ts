import { describe, expect, it } from "vitest";
import { decideHelpful } from "../../../src/dream/lessons/helpful-decision.js";
import type { Lesson } from "../../../src/dream/lessons/lesson.js";
import type { SolveOutcome } from "../../../src/dream/lessons/solve-outcome.js";
import { verifyLessonHelpful, type HelpfulRerunRequest } from "../../../src/dream/lessons/verify-lesson-helpful.js";
import { GENERAL } from "./lesson-fixtures.js";

const LESSON: Lesson = { ...GENERAL, domains: ["regex-parse"], sourceChallengeHash: "c0ffee" };
const fail = (attemptsUsed = 3): SolveOutcome => ({ passed: false, attemptsUsed });
const pass = (attemptsUsed: number): SolveOutcome => ({ passed: true, attemptsUsed });

describe("decideHelpful", () => {
  it("keeps a lesson that turns a failure into a pass, at any attempt", () => {
    expect(decideHelpful(fail(), pass(3))).toEqual({ keep: true, reason: "failure-became-pass" });
    expect(decideHelpful(fail(), pass(1))).toEqual({ keep: true, reason: "failure-became-pass" });
  });

  it("keeps a lesson that turns a struggled win into a first-try win", () => {
    expect(decideHelpful(pass(2), pass(1))).toEqual({ keep: true, reason: "first-try-pass" });
    expect(decideHelpful(pass(3), pass(1))).toEqual({ keep: true, reason: "first-try-pass" });
  });

  it("drops ties and anything short of strictly better", () => {
    expect(decideHelpful(fail(), fail())).toEqual({ keep: false, reason: "not-better" });
    expect(decideHelpful(pass(2), pass(2))).toEqual({ keep: false, reason: "not-better" });
    expect(decideHelpful(pass(3), pass(2))).toEqual({ keep: false, reason: "not-better" });
    expect(decideHelpful(pass(2), fail())).toEqual({ keep: false, reason: "not-better" });
  });

  it("drops a lesson learnt on a first-try win: nothing can beat it", () => {
    expect(decideHelpful(pass(1), pass(1))).toEqual({ keep: false, reason: "no-room-to-improve" });
  });
});

describe("verifyLessonHelpful", () => {
  it("re-runs with the original seed and the lesson under the playbook header, and keeps a strict improvement", async () => {
    const requests: HelpfulRerunRequest[] = [];
    const verdict = await verifyLessonHelpful({
      lesson: LESSON,
      original: pass(2),
      samplerSeed: 4242,
      rerun: async (request) => {
        requests.push(request);
        return pass(1);
      },
    });
    expect(verdict).toEqual({ lesson: LESSON, kept: true, reason: "first-try-pass", original: pass(2), verify: pass(1) });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.samplerSeed).toBe(4242);
    expect(requests[0]?.lesson).toBe(LESSON);
    expect(requests[0]?.playbookBlock.startsWith("### SKILL PLAYBOOK:\n")).toBe(true);
    expect(requests[0]?.playbookBlock).toContain(LESSON.correctPattern);
  });

  it("drops the lesson when the re-run fails again", async () => {
    const verdict = await verifyLessonHelpful({ lesson: LESSON, original: fail(), samplerSeed: 1, rerun: async () => fail() });
    expect(verdict).toMatchObject({ kept: false, reason: "not-better", verify: fail() });
  });

  it("makes no re-run after a first-try win", async () => {
    let reruns = 0;
    const verdict = await verifyLessonHelpful({
      lesson: LESSON,
      original: pass(1),
      samplerSeed: 1,
      rerun: async () => {
        reruns++;
        return pass(1);
      },
    });
    expect(reruns).toBe(0);
    expect(verdict).toMatchObject({ kept: false, reason: "no-room-to-improve", verify: null });
  });
});
